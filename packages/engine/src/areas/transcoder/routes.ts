import { adminKey } from '../../admin/guard.js';
import { bearer, serviceEnabled } from '../../shared/auth/middlewares.js';
import { changes, reads } from '../../shared/durability/declarations.js';
import { readJsonObject } from '../../shared/http/body.js';
import { createRoutes } from '../../shared/http/routes.js';
import { SETTING_KINDS } from './setting-kinds.js';
import { settingsJson, transcoderState } from './state.js';
import { saveSetting, settingsOwner } from './setting-books.js';
import { loadOnce } from '../../shared/util/load-once.js';

// The checks of every kind's fields load with the first saved setting, jobs and their pipeline with the first
// conversion: browser apps that mock the service rarely convert.
const settingChecks = loadOnce(() => import('./setting-checks.js'));
const jobs = loadOnce(() => import('./jobs.js'));
const policies = loadOnce(() => import('./policy.js'));

export const transcoderRoutes = createRoutes();

transcoderRoutes.use('/metadata/*', serviceEnabled('transcoder'), bearer);
transcoderRoutes.use('/video/*', serviceEnabled('transcoder'), bearer);

for (const kind of SETTING_KINDS) {
  transcoderRoutes.post(`/metadata/${kind}`, changes(), async (c) => {
    const body = await readJsonObject(c);
    const { validateSetting } = await settingChecks();
    const { record, created } = saveSetting(
      c.env.project,
      settingsOwner(c.get('principal')),
      kind,
      validateSetting(kind, body),
    );
    return c.json(record, created ? 201 : 200);
  });
}

transcoderRoutes.post('/video/convert', changes(), async (c) => {
  const { submitConvert } = await jobs();
  const owner = settingsOwner(c.get('principal'));
  const { requestId, videoId } = submitConvert(c.env.project, c.env.moment, owner, await readJsonObject(c));
  return c.json({ requestId, videoId }, 202);
});

transcoderRoutes.use('/__admin/jobs', adminKey);
transcoderRoutes.use('/__admin/transcoder/*', adminKey);

transcoderRoutes.get('/__admin/jobs', reads, (c) =>
  c.json({ jobs: [...c.env.project.state(transcoderState).jobs.values()] }),
);

// Every stored settings record: the project's (the master token's) and each user's own.
transcoderRoutes.get('/__admin/transcoder/settings', reads, (c) =>
  c.json(settingsJson(c.env.project.state(transcoderState))),
);

transcoderRoutes.get('/__admin/transcoder/policy', reads, (c) => c.json(c.env.project.state(transcoderState).policy));

transcoderRoutes.patch('/__admin/transcoder/policy', changes(), async (c) => {
  const state = c.env.project.state(transcoderState);
  const { updatePolicy } = await policies();
  return c.json(updatePolicy(state.policy, await readJsonObject(c)));
});
