import { AppError } from '../../platform/errors/app-error.ts';

/** Owner strings a portal session may have: `telegram:<id>` (bot users) or `portal:<account>` (CLI links). */
const OWNER_PATTERN = /^(?:telegram:\d{1,20}|portal:[A-Za-z0-9._@-]{1,64})$/;

/** Owner string of a portal account made by `npm run portal -- login-link --account NAME`: `portal:<name>`. */
export function portalAccountOwner(account: string): string {
  return `portal:${account}`;
}

/**
 * Checks an owner string before a sign-in link is made for it.
 * @throws AppError `invalid_input` (param `owner`), in words, unless it is `telegram:<digits>` or
 *   `portal:<1..64 of A-Z a-z 0-9 . _ @ ->`.
 */
export function checkPortalOwner(owner: string): void {
  if (OWNER_PATTERN.test(owner)) return;
  if (owner.startsWith('telegram:')) {
    throw new AppError('invalid_input', 'A Telegram user id is a whole number, for example 123456789.', { param: 'owner' });
  }
  throw new AppError(
    'invalid_input',
    'The account name may have 1 to 64 letters, digits and the characters . _ @ - (for example "admin" or "ana@example.com").',
    { param: 'owner' },
  );
}

/** How the portal names the signed-in person: `telegram:42` → `Telegram user 42`, `portal:ana` → `ana`. */
export function describePortalOwner(owner: string): string {
  if (owner.startsWith('telegram:')) return `Telegram user ${owner.slice('telegram:'.length)}`;
  if (owner.startsWith('portal:')) return owner.slice('portal:'.length);
  return owner;
}
