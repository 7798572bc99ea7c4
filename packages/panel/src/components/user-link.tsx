import { href } from '../router.js';
import { useUsername } from '../usernames.js';

/** A user by their username (the id while it is looked up, and in the tooltip), a link to their page. */
export function UserLink({ userId }: { userId: string }) {
  const name = useUsername(userId);
  if (name === null) return <span title={`user id ${userId}`}>{userId} (no longer a user)</span>;
  return (
    <a href={href('users', userId)} title={`user id ${userId}`}>
      {name ?? userId}
    </a>
  );
}
