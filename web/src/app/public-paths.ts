/** The public paths of spec part 1 §2; every other path needs a session. */
export const PUBLIC_PATHS = [
  '/',
  '/home',
  '/login',
  '/pricing',
  '/calculator',
  '/terms',
  '/privacy',
  '/dpa',
  '/subprocessors',
  '/cookies',
  '/auth/accept-invite',
  '/auth/email-sent',
  '/auth/verify-email',
  '/hubspot-oauth-success',
  '/hubspot-oauth-failed',
  '/status',
] as const;

export function isPublicPath(pathname: string): boolean {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (PUBLIC_PATHS as readonly string[]).includes(trimmed);
}
