/** Who the limit counts for: the account, or the key itself for founder keys (no account). */
export function limitSubject(key: { id: string; accountId: string | null }): string {
  return key.accountId !== null ? `account:${key.accountId}` : `key:${key.id}`;
}
