import type { PageProps } from './page-props.js';
import { UserList } from './users/user-list.js';
import { UserView } from './users/user-view.js';

/** The Users page: /users lists and searches them, /users/<userId> opens one. */
export default function UsersPage({ params }: PageProps) {
  const [userId] = params;
  return userId ? <UserView userId={userId} /> : <UserList />;
}
