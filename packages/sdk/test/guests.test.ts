// The users-service helpers beyond the spec (the service's published Node client calls these operations).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, ForbiddenError, NotFoundError, SessionExpiredError, createClient } from '../src/index.js';
import { masterClient, optionsFor, rejection, startTestServer, userClient, type TestServer } from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('guests', () => {
  it('registers a guest, who logs in with the credentials the service chose', async () => {
    const app = createClient(optionsFor(server));
    const guest = await app.auth.registerGuest();
    expect(guest).toMatchObject({ id: guest.userId, guest: true, active: true });
    await app.auth.login(guest.username, guest.password);
    expect(await app.auth.me()).toMatchObject({ userId: guest.id, guest: true });
  });

  it("completes a guest's registration from server-side code; the guest's session goes on", async () => {
    const app = createClient(optionsFor(server));
    const guest = await app.auth.registerGuest();
    await app.auth.login(guest.username, guest.password);
    const admin = await masterClient(server);
    const user = await admin.auth.completeGuestRegistration({
      userId: guest.id,
      lastPassword: guest.password,
      newUsername: 'ex-guest',
      newPassword: 'pw-ex-guest',
      firstName: 'Gus',
    });
    expect(user).toMatchObject({ userId: guest.id, username: 'ex-guest', firstName: 'Gus', guest: false });
    expect(await app.auth.me()).toMatchObject({ username: 'ex-guest' });
    await createClient(optionsFor(server)).auth.login('ex-guest', 'pw-ex-guest');
    const again = admin.auth.completeGuestRegistration({
      userId: guest.id,
      lastPassword: 'pw-ex-guest',
      newUsername: 'other',
      newPassword: 'pw',
    });
    expect(await rejection(again)).toMatchObject({ status: 409, code: 217 });
  });

  it('refuses to complete a registration with a user token', async () => {
    const guest = await createClient(optionsFor(server)).auth.registerGuest();
    const user = await userClient(server);
    const refused = user.auth.completeGuestRegistration({
      userId: guest.id,
      lastPassword: guest.password,
      newUsername: 'taken-over',
      newPassword: 'pw',
    });
    expect(await rejection(refused)).toBeInstanceOf(ForbiddenError);
  });
});

describe('counting and deleting users', () => {
  it('counts the users, guests included', async () => {
    const admin = await masterClient(server);
    const before = await admin.auth.countUsers();
    await createClient(optionsFor(server)).auth.registerGuest();
    await userClient(server);
    expect(await admin.auth.countUsers()).toBe(before + 2);
  });

  it('deletes a user: their session stops at once, their name is free again', async () => {
    const user = await userClient(server);
    const { userId } = await user.auth.me();
    const admin = await masterClient(server);
    await admin.auth.deleteUser(userId);
    expect(await rejection(admin.auth.user(userId))).toBeInstanceOf(NotFoundError);
    // The access token is refused (401), and so is its renewal: the session is over.
    expect(await rejection(user.auth.me())).toBeInstanceOf(SessionExpiredError);
    await createClient(optionsFor(server)).auth.register({ username: user.username, password: 'pw' });
    expect(await rejection(admin.auth.deleteUser(userId))).toBeInstanceOf(NotFoundError);
  });

  it('refuses both to a user token', async () => {
    const user = await userClient(server);
    const { userId } = await user.auth.me();
    expect(await rejection(user.auth.countUsers())).toBeInstanceOf(ForbiddenError);
    expect(await rejection(user.auth.deleteUser(userId))).toBeInstanceOf(ForbiddenError);
    expect(await user.auth.me()).toMatchObject({ userId });
  });

  it('throws ConflictError for a taken username at completion', async () => {
    const taken = await userClient(server);
    const guest = await createClient(optionsFor(server)).auth.registerGuest();
    const admin = await masterClient(server);
    const clash = admin.auth.completeGuestRegistration({
      userId: guest.id,
      lastPassword: guest.password,
      newUsername: taken.username,
      newPassword: 'pw',
    });
    expect(await rejection(clash)).toBeInstanceOf(ConflictError);
  });
});
