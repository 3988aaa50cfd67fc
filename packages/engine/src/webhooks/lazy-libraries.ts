import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type * as AjvModule from 'ajv';
import type * as FormatsModule from 'ajv-formats/dist/formats.js';
import type * as Re2Module from 're2js';

/*
 * The libraries of payload schemas (ajv, its formats, RE2) are loaded on first use, through
 * their CommonJS entry points: most processes never check a payload schema, and as part of the
 * engine's module they were half a megabyte of source that every `svc` command compiled at start.
 */
const requireHere = createRequire(
  typeof import.meta.url === 'string' ? import.meta.url : pathToFileURL(`${process.cwd()}/`).href,
);

export function loadAjv(): typeof AjvModule {
  return requireHere('ajv') as typeof AjvModule;
}

export function loadFormats(): typeof FormatsModule {
  return requireHere('ajv-formats/dist/formats.js') as typeof FormatsModule;
}

export function loadRe2(): typeof Re2Module {
  return requireHere('re2js') as typeof Re2Module;
}
