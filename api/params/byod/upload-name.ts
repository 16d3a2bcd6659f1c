import type { Checked } from '../../../lib/checked.ts';
import type { ByodKind } from '../../../schemas/byod-api.ts';
import { sanitizeDisplayName } from './name.ts';
import type { IncomingUpload } from './upload-body.ts';

const DEFAULT_NAMES: Readonly<Record<ByodKind, string>> = { geojson: 'untitled.geojson', pmtiles: 'untitled.pmtiles' };

/** An upload's display name: a multipart name field, else the file name, else the name query parameter. */
export function chooseUploadName(upload: IncomingUpload, query: string | undefined): Checked<string> {
  const fallback = upload.fileName ?? DEFAULT_NAMES[upload.kind];
  const field = sanitizeDisplayName(upload.nameField, '', 'name');
  if (!field.ok) return field;
  if (field.value) return field;
  return sanitizeDisplayName(query, fallback);
}
