import { Type, type Static } from '@sinclair/typebox';
import './formats.ts';

export const ReleaseIdPattern = '^\\d{4}-\\d{2}-\\d{2}-[0-9a-f]{12}$';

export const ManifestInput = Type.Object({
  name: Type.String(),
  source: Type.String({ description: 'URL or path it was read from' }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  licence: Type.Optional(Type.String()),
  attribution: Type.Optional(Type.String()),
  source_updated_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type ManifestInput = Static<typeof ManifestInput>;

export const ManifestArtifact = Type.Object({
  path: Type.String({ description: 'relative to the release directory' }),
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});
export type ManifestArtifact = Static<typeof ManifestArtifact>;

export const Manifest = Type.Object({
  id: Type.String({ pattern: ReleaseIdPattern }),
  kind: Type.String({ pattern: '^[a-z][a-z0-9-]*$' }),
  created_at: Type.String({ format: 'date-time' }),
  content_hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'sha256 over the normalized inputs and the builder version' }),
  builder_version: Type.String(),
  schema_version: Type.Integer({ minimum: 1 }),
  inputs: Type.Array(ManifestInput),
  artifacts: Type.Array(ManifestArtifact),
  stats: Type.Record(Type.String(), Type.Unknown()),
  coverage: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
});
export type Manifest = Static<typeof Manifest>;
