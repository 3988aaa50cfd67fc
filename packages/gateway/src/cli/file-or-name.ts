import { existsSync } from 'node:fs';

/**
 * Whether `svc run flow|suite <argument>` names a file or something saved (an id or a name): a file
 * that exists, or anything shaped like a path (a separator, a `.json`/`.yaml`/`.yml` ending), is a
 * file, so that a typo in a path says the file cannot be read rather than that no flow has that name.
 */
export function namesAFile(argument: string): boolean {
  return existsSync(argument) || /[\\/]|\.(json|ya?ml)$/i.test(argument);
}
