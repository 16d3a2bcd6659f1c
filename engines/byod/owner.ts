/**
 * Who owns an upload and whose quota it counts against: the key's account, or the key itself
 * for keys without an account (founder and integration keys).
 */
export function overlayOwner(key: { id: string; accountId: string | null }): string {
  return key.accountId !== null ? `account:${key.accountId}` : `key:${key.id}`;
}
