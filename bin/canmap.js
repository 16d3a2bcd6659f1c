#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so there is no build step and no build output.
import { register } from 'tsx/esm/api';
register();
await import('./cli.ts');
