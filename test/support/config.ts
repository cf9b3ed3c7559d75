// A stand-in for Eleventy's config that records what a module registers, so unit tests can call a
// filter or preprocessor exactly as the build would, without running a build.
import type UserConfig from "@11ty/eleventy/UserConfig";

type Fn = (...args: never[]) => unknown;

export interface Registered {
  /** Filters, shortcodes, preprocessors and collections by name. */
  functions: Map<string, Fn>;
  config: UserConfig;
}

export function registered(plugin: (config: UserConfig) => void): Registered {
  const functions = new Map<string, Fn>();
  const config = new Proxy({} as Record<string, unknown>, {
    get: (_target, method: string) =>
      (...args: unknown[]) => {
        // addFilter(name, fn), addPreprocessor(name, extensions, fn), …: the name first, the function last.
        const fn = args.at(-1);
        if (method.startsWith("add") && typeof args[0] === "string" && typeof fn === "function") functions.set(args[0], fn as Fn);
      },
  }) as unknown as UserConfig;
  plugin(config);
  return { functions, config };
}

export function registeredFunction<T extends Fn>(plugin: (config: UserConfig) => void, name: string): T {
  const fn = registered(plugin).functions.get(name);
  if (!fn) throw new Error(`${name} is not registered`);
  return fn as T;
}
