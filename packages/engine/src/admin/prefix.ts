/** The prefix of the admin API's paths (and the panel's), which answer no other origin. */
export const ADMIN_PREFIX = '/__admin';
