/** A suite file may be at most this large: 500 flow paths take a few tens of KB. */
export const MAX_SUITE_FILE_BYTES = 1024 * 1024;
/** A flow file a suite file lists may be at most this large: a flow of 1,000 nodes takes about 1 MB. */
export const MAX_FLOW_FILE_BYTES = 4 * 1024 * 1024;

/**
 * Why a suite file's entry cannot name a flow file, or undefined when it can: a path relative to
 * the suite file, to a `.yaml`, `.yml` or `.json` file (so that a suite file cannot make `svc` read,
 * and send to a service, a key file or a `.env`). `..` is allowed: a suite in `ci/` may list
 * `../flows/…`. One reason per entry: the first rule it breaks.
 */
export function flowFilePathProblem(path: string): string | undefined {
  return /^([\\/]|[A-Za-z]:[\\/]|~)/.test(path)
    ? 'must be relative to the suite file, not absolute'
    : !/\.(ya?ml|json)$/i.test(path)
      ? 'must name a .yaml, .yml or .json flow file'
      : path.includes('\0')
        ? 'must not contain a NUL character'
        : undefined;
}
