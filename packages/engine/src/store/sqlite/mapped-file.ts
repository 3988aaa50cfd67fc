import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** The addon of `native/mapped_file.c`: shared, writable mappings of a file. */
export interface MappedFileAddon {
  /** The file's first `length` bytes, mapped shared; unmapped when the buffer is collected. */
  map(fd: number, length: number): ArrayBuffer;
  /** msync(MS_SYNC) of the whole mapping. */
  sync(buffer: ArrayBuffer): void;
}

let loaded: MappedFileAddon | null | undefined;

/**
 * The memory-mapping addon, built at install time; `null` where it could not be built or
 * loaded (no C toolchain, another platform), in which case the execution log writes with
 * write(2). `SVC_EXECUTION_LOG_MMAP=0` turns mapping off, to compare or to rule it out.
 */
export function mappedFileAddon(env: NodeJS.ProcessEnv = process.env): MappedFileAddon | null {
  if (env.SVC_EXECUTION_LOG_MMAP === '0') return null;
  if (loaded !== undefined) return loaded;
  // The package root holds `build/`: three folders above the sources and the build, fewer above
  // a bundle of the package.
  const base = typeof import.meta.url === 'string' ? import.meta.url : pathToFileURL(`${process.cwd()}/`).href;
  const require = createRequire(base);
  loaded = null;
  for (const up of ['../../../', '../../', '../', './']) {
    try {
      loaded = require(`${up}build/Release/mapped_file.node`) as MappedFileAddon;
      break;
    } catch {
      // not built there
    }
  }
  return loaded;
}
