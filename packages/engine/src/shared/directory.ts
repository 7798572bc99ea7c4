/** A user as other areas see them (the leaderboards' `userBriefProfile`). */
export interface UserProfile {
  userId: string;
  userName: string;
  firstName: string;
  lastName: string;
}

/** How areas other than users look a user up, without reaching into the users area's state. */
export interface UserDirectory {
  profile(userId: string): UserProfile | undefined;
  /** Whether the user exists (tokens of users that are gone are refused). */
  has(userId: string): boolean;
}
