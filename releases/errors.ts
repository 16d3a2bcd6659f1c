/** A release cannot be published, enabled or rolled back as asked; the message says why. */
export class ReleaseError extends Error {}
