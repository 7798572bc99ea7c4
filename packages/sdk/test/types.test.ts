// Compile-time checks: `npm run typecheck` fails when a line marked @ts-expect-error compiles (misuse slipped
// through) or when an expectTypeOf does not hold. The functions below are type-checked, never run.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createClient,
  createCore,
  createDb,
  createLeaderboards,
  type ClientOptions,
  type MissingOption,
  op,
  pointer,
  type Client,
  type Created,
  type FileRecord,
  type Pointer,
  type ProfileList,
  type Rank,
  type Relation,
  type Row,
  type Session,
  type User,
  type UserList,
} from '../src/index.js';

interface Note {
  title: string;
  views: number;
  tags?: string[];
  due?: Date;
  author?: Pointer<'Author'>;
  likes?: Relation<'User'>;
  /** A plain array of pointers: written as a value, unlike a relation. */
  readers?: Pointer<'User'>[];
}

// Never sends a request: the calls below are only type-checked.
const keys = { baseUrl: 'http://localhost:3000', authenticationId: 'a', clientKey: 'k' };
const client: Client = createClient({ ...keys, objectStorageId: 'd', storageId: 's', gameId: 'g' });
const notes = client.db.table<Note>('Note');

function rows() {
  // @ts-expect-error a wrong column type
  void notes.create({ title: 1, views: 0 });
  // @ts-expect-error a missing required field
  void notes.create({ title: 'no views' });
  // @ts-expect-error an unknown column
  void notes.create({ title: 't', views: 0, colour: 'red' });
  // @ts-expect-error Increment only on number columns
  void notes.update('id', { title: op.increment() });
  // @ts-expect-error array operators take the array's element type
  void notes.update('id', { tags: op.addUnique(1) });
  // @ts-expect-error Delete only on optional columns
  void notes.update('id', { title: op.delete() });
  // @ts-expect-error relation columns change only through relation operators
  void notes.update('id', { likes: pointer('User', 'u1') });
  // @ts-expect-error a relation operator into the wrong table
  void notes.update('id', { likes: op.addRelation(pointer('Team', 't1')) });
  // @ts-expect-error a pointer into the wrong table
  void notes.create({ title: 't', views: 0, author: pointer('Team', 't1') });
  void notes.create({
    title: 't',
    views: 0,
    due: new Date(),
    author: pointer('Author', 'a1'),
    likes: op.addRelation(pointer('User', 'u1')),
  });
  void notes.update('id', {
    views: op.increment(2),
    tags: op.remove('x'),
    due: op.delete(),
    likes: op.removeRelation(pointer('User', 'u1')),
  });
  void notes.update('id', { readers: [pointer('User', 'u1')] });
}

async function relationsReadBack() {
  // A relation column reads back as the pointers to its related rows.
  const note = await notes.get('id');
  expectTypeOf(note.likes!.map((like) => like._id)).toEqualTypeOf<string[]>();
  expectTypeOf(note.likes![0]!).toEqualTypeOf<Pointer<'User'>>();
}

function queries() {
  const q = notes.query();
  // @ts-expect-error an unknown column
  q.equalTo('colour', 'red');
  // @ts-expect-error a value of the wrong type
  q.equalTo('views', 'many');
  // @ts-expect-error dates compare with Date
  q.lessThan('due', '2030-01-01');
  // @ts-expect-error containsAll takes the array's elements
  q.containsAll('tags', [1, 2]);
  // @ts-expect-error matches only string columns
  q.matches('views', /1/);
  // @ts-expect-error order by an unknown column
  q.ascending('colour');
  // @ts-expect-error select an unknown column
  q.select('colour');
  q.equalTo('tags', 'news')
    .greaterThan('createdAt', new Date())
    .matches('title', /^a/i)
    .descending('views')
    .select('title', 'views');
}

function masterOnly() {
  // @ts-expect-error paging takes numbers
  void client.auth.list({ page: 'first' });
  // @ts-expect-error a search needs its word
  void client.auth.search();
  // @ts-expect-error listing pages are numbered
  void client.files.list('photos', { page: '2' });
  // @ts-expect-error copy names a destination
  void client.files.copy(['a.txt']);
  // @ts-expect-error user updates take profile fields only
  void client.auth.updateUser('id', { password: 'x' });
}

function otherAreas() {
  void client.transcoder.saveWatermark({
    name: 'w',
    default: false,
    // @ts-expect-error watermark locations are an enum
    location: 'MIDDLE',
    paddingX: 0,
    paddingY: 0,
    url: 'https://x/y.png',
  });
  // @ts-expect-error a conversion needs the source url
  void client.transcoder.convert({ upload: true, preset: true });
  // @ts-expect-error event values are numbers
  void client.leaderboards.sendEvent('match_end', { score: '12' });
  // @ts-expect-error extra registration fields are strings
  void client.auth.register({ username: 'ann', password: 'pw', age: 3 });
}

function options() {
  // @ts-expect-error the project's authentication id is required
  createClient({ baseUrl: 'http://localhost:3000', clientKey: 'k' });
  // @ts-expect-error a registration needs a password
  void client.auth.register({ username: 'ann' });
  // @ts-expect-error a misspelt option
  createClient({ ...keys, objectStorageID: 'd' });
}

/** A client without an area's id: using that area does not compile; the others do. */
function missingAreaIds() {
  const bare = createClient(keys);
  // @ts-expect-error the database needs objectStorageId
  void bare.db.table('Note');
  // @ts-expect-error the file storage needs storageId
  void bare.files.upload([]);
  // @ts-expect-error no downloads either without a bucket
  void bare.files.downloadUrl('a.png');
  // @ts-expect-error the leaderboards need gameId
  void bare.leaderboards.top('high-score', 10);
  // @ts-expect-error nor does it pass for a client with every area
  const _all: Client = bare;
  void bare.auth.login('ann', 'pw');
  void bare.transcoder.convert({ url: 'https://x/in.mp4', upload: true });
  // One area alone, on a core without its id.
  // @ts-expect-error the database needs objectStorageId
  void createDb(createCore(keys)).table('Note');
  void createLeaderboards(createCore({ ...keys, gameId: 'g' })).top('high-score', 10);
  // Downloads need only a bucket.
  const downloads = createClient({ ...keys, bucket: 'photos' });
  void downloads.files.downloadUrl('a.png');
  // @ts-expect-error uploads need storageId
  void downloads.files.upload([]);
}

/** Options typed as `ClientOptions`, whose ids may be there, keep every area (code that gives them compiles as before). */
function optionalAreaIds(options: ClientOptions) {
  const wide: Client = createClient(options);
  void createClient(options).db.table('Note');
  void wide.files.upload([]);
}

describe('types', () => {
  it('checks misuse at compile time', () => {
    expectTypeOf(rows).toBeFunction();
    expectTypeOf(queries).toBeFunction();
    expectTypeOf(masterOnly).toBeFunction();
    expectTypeOf(otherAreas).toBeFunction();
    expectTypeOf(options).toBeFunction();
    expectTypeOf(missingAreaIds).toBeFunction();
    expectTypeOf(optionalAreaIds).toBeFunction();
    expectTypeOf(relationsReadBack).toBeFunction();
  });

  it('names the missing option in the type of an area without its id', () => {
    const bare = createClient(keys);
    expectTypeOf(bare.db).toEqualTypeOf<MissingOption<'objectStorageId'>>();
    expectTypeOf(bare.files).toEqualTypeOf<MissingOption<'storageId'>>();
    expectTypeOf(bare.leaderboards).toEqualTypeOf<MissingOption<'gameId'>>();
  });

  it('types what calls return', () => {
    expectTypeOf(notes.create).returns.resolves.toEqualTypeOf<Created>();
    expectTypeOf(notes.get).returns.resolves.toEqualTypeOf<Row<Note>>();
    expectTypeOf(notes.query().find).returns.resolves.toEqualTypeOf<Row<Note>[]>();
    expectTypeOf(notes.query().first).returns.resolves.toEqualTypeOf<Row<Note> | undefined>();
    expectTypeOf(notes.query().count).returns.resolves.toBeNumber();
    expectTypeOf<Row<Note>['due']>().toEqualTypeOf<Date | undefined>();
    expectTypeOf<Row<Note>['createdAt']>().toEqualTypeOf<Date>();
    expectTypeOf(client.auth.login).returns.resolves.toEqualTypeOf<Session>();
    expectTypeOf(client.auth.me).returns.resolves.toEqualTypeOf<User>();
    expectTypeOf(client.auth.list).returns.resolves.toEqualTypeOf<UserList>();
    expectTypeOf(client.db.table('Any').deleteAll).returns.resolves.toBeNumber();
    expectTypeOf(client.files.list).returns.resolves.toEqualTypeOf<FileRecord[]>();
    expectTypeOf(client.files.upload).returns.resolves.toEqualTypeOf<string[]>();
    expectTypeOf(client.leaderboards.rank).returns.resolves.toEqualTypeOf<Rank>();
    expectTypeOf(client.leaderboards.top).returns.resolves.toEqualTypeOf<ProfileList>();
  });
});
