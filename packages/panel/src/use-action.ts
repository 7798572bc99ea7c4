import { useState } from 'preact/hooks';

/** What `useAction` holds: whether the action runs, and the message or error of its last run. */
export interface Action {
  busy: boolean;
  message: string;
  error: unknown;
  /** Runs `work`; its answer is the message to announce (in a `Status`), a throw its error. */
  run: (work: () => Promise<string>) => Promise<void>;
}

/** A button's or form's async action, with its outcome for a `Status` next to it. */
export function useAction(): Action {
  const [state, setState] = useState<Omit<Action, 'run'>>({ busy: false, message: '', error: undefined });
  const run = async (work: () => Promise<string>) => {
    setState({ busy: true, message: '', error: undefined });
    try {
      setState({ busy: false, message: await work(), error: undefined });
    } catch (error) {
      setState({ busy: false, message: '', error });
    }
  };
  return { ...state, run };
}
