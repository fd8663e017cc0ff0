// import() of a module from outside the bundle (out-of-tree plugins, tsx). In dist/, the core runs
// from V8's code cache, whose functions lose Node's callback for import() ("A dynamic import
// callback was not specified"): the build swaps this module for the same function defined in
// dist/core.js, an ES module of Node's own loader (src/build/bundle.ts).
export const importModule = <T>(specifier: string): Promise<T> => import(specifier) as Promise<T>;
