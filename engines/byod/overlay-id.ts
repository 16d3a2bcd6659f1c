import { randomBytes } from 'node:crypto';

/**
 * Overlay ids are 96 random bits in lowercase hex: unguessable, never reused, and the only thing
 * a stored file is named after (io/overlays/files.ts), so no user input ever becomes a path.
 */
const OVERLAY_ID = /^[0-9a-f]{24}$/;

export function newOverlayId(): string {
  return randomBytes(12).toString('hex');
}

/** Whether a path segment can name an overlay at all (anything else is a 404 without a lookup). */
export function isOverlayId(value: string): boolean {
  return OVERLAY_ID.test(value);
}
