/**
 * Chunk groups for the web app's first screens (vite.config.ts). Rolldown splits the lazy routes
 * by which routes share a module: about 50 small files for the Certificates page, each a request
 * of its own (over HTTP/1.1, six at a time) with ~1 KB of headers. This plugin works out which
 * modules each first screen really uses and asks Rolldown for one chunk per set of screens that
 * share them (one for both, one for each alone), so a first screen loads a handful of files.
 *
 * "Really uses" follows imported names, not files: the app imports Mantine, its hooks and the
 * icons through their index modules, which re-export everything; following every import of an
 * index would put the whole library into the group. So an import of `{ Badge }` from
 * '@mantine/core' follows `Badge` through the index to the module that declares it, and only a
 * module whose own code is needed is taken, whole, with everything it imports. Dynamic imports
 * are not followed: what they load is not part of the screen (other routes, the widgets that load
 * when reached for). A module the entry loads stays with the entry or the vendor chunk.
 *
 * A group only decides where modules are placed, never what runs: a module missed here is split
 * by Rolldown as before, so the worst a mistake can do is cost a file.
 */
import path from 'node:path';
import type { Plugin } from 'vite';
import { FIRST_SCREENS_FILE, type FirstScreensFile } from '../common/first-screens.js';

type Names = Set<string> | '*';
type ParseFn = (code: string) => { body: Node[] };
type ResolveFn = (source: string, importer: string) => Promise<{ id: string; external?: boolean | string } | null>;

// The ESTree nodes this reads.
interface Node {
  type: string;
  source?: { value: string } | null;
  specifiers?: Array<{ type: string; imported?: { name?: string; value?: string }; local?: { name: string }; exported?: { name?: string; value?: string } }>;
  declaration?: (Node & { id?: { name: string } | null; declarations?: Array<{ id: { type: string; name?: string } }> }) | null;
  exported?: { name?: string; value?: string } | null;
}

interface ModuleShape {
  /** Local name -> where it was imported from. */
  imports: Map<string, { source: string; name: string }>;
  /** Exported name -> the local name, or the module and name it re-exports. */
  exports: Map<string, { local: string } | { source: string; name: string }>;
  starSources: string[];
  /** Import sources with the names taken from each ('*' for a namespace or a bare import). */
  requests: Array<{ source: string; names: Names }>;
}

const nameOf = (node?: { name?: string; value?: string } | null) => node?.name ?? node?.value ?? '';

function shapeOf(ast: { body: Node[] }): ModuleShape {
  const shape: ModuleShape = { imports: new Map(), exports: new Map(), starSources: [], requests: [] };
  for (const node of ast.body) {
    if (node.type === 'ImportDeclaration' && node.source) {
      const names = new Set<string>();
      let all = !node.specifiers?.length; // import './x.css': its code runs
      for (const s of node.specifiers ?? []) {
        if (s.type === 'ImportNamespaceSpecifier') all = true;
        const imported = s.type === 'ImportDefaultSpecifier' ? 'default' : s.type === 'ImportNamespaceSpecifier' ? '*' : nameOf(s.imported);
        shape.imports.set(s.local!.name, { source: node.source.value, name: imported });
        names.add(imported);
      }
      shape.requests.push({ source: node.source.value, names: all ? '*' : names });
    } else if (node.type === 'ExportNamedDeclaration') {
      if (node.source) {
        for (const s of node.specifiers ?? []) shape.exports.set(nameOf(s.exported), { source: node.source.value, name: nameOf(s.local as never) });
      } else {
        for (const s of node.specifiers ?? []) shape.exports.set(nameOf(s.exported), { local: s.local!.name });
        const declared = node.declaration;
        if (declared?.id?.name) shape.exports.set(declared.id.name, { local: declared.id.name });
        for (const d of declared?.declarations ?? []) if (d.id.name) shape.exports.set(d.id.name, { local: d.id.name });
      }
    } else if (node.type === 'ExportAllDeclaration' && node.source) {
      if (node.exported) shape.exports.set(nameOf(node.exported), { source: node.source.value, name: '*' });
      else shape.starSources.push(node.source.value);
    } else if (node.type === 'ExportDefaultDeclaration') {
      shape.exports.set('default', { local: '*default*' });
    }
  }
  return shape;
}

/** The modules whose own code the given roots need (each root whole). */
async function modulesNeeded(roots: string[], parse: ParseFn, resolve: ResolveFn, codeOf: (id: string) => string | null): Promise<Set<string>> {
  const shapes = new Map<string, ModuleShape | null>();
  const resolved = new Map<string, string | null>();
  const whole = new Set<string>();
  const asked = new Map<string, Set<string>>();
  const queue: Array<[string, Names]> = roots.map((id) => [id, '*']);

  const shape = (id: string) => {
    if (!shapes.has(id)) {
      const code = codeOf(id);
      let parsed: ModuleShape | null = null;
      try {
        parsed = code === null ? null : shapeOf(parse(code));
      } catch {
        parsed = null; // not JavaScript (an asset): nothing to follow
      }
      shapes.set(id, parsed);
    }
    return shapes.get(id)!;
  };
  const target = async (source: string, importer: string) => {
    const key = `${importer}\0${source}`;
    if (!resolved.has(key)) {
      const r = await resolve(source, importer);
      resolved.set(key, r && !r.external ? r.id : null);
    }
    return resolved.get(key)!;
  };

  while (queue.length) {
    const [id, names] = queue.pop()!;
    if (whole.has(id)) continue;
    const s = shape(id);
    if (names === '*' || !s) {
      whole.add(id);
      if (!s) continue;
      for (const r of s.requests) {
        const to = await target(r.source, id);
        if (to) queue.push([to, r.names]);
      }
      for (const [, e] of s.exports) {
        if ('source' in e) {
          const to = await target(e.source, id);
          if (to) queue.push([to, e.name === '*' ? '*' : new Set([e.name])]);
        }
      }
      for (const source of s.starSources) {
        const to = await target(source, id);
        if (to) queue.push([to, '*']);
      }
      continue;
    }
    const seen = asked.get(id) ?? new Set<string>();
    asked.set(id, seen);
    for (const name of names) {
      if (seen.has(name)) continue;
      seen.add(name);
      const e = s.exports.get(name);
      if (!e) {
        // export * from …: the name is in one of them
        for (const source of s.starSources) {
          const to = await target(source, id);
          if (to) queue.push([to, new Set([name])]);
        }
        continue;
      }
      if ('source' in e) {
        const to = await target(e.source, id);
        if (to) queue.push([to, e.name === '*' ? '*' : new Set([e.name])]);
        continue;
      }
      const imported = s.imports.get(e.local);
      if (imported) {
        // An index module passing a name on: follow it, the index itself is not needed.
        const to = await target(imported.source, id);
        if (to) queue.push([to, imported.name === '*' ? '*' : new Set([imported.name])]);
      } else {
        queue.push([id, '*']); // declared here: this module's code is needed
      }
    }
  }
  return whole;
}

export interface Screen {
  name: string;
  /** The route modules (layout and page) the router loads for the screen, relative to the project. */
  routes: string[];
  /** The paths that open the screen, as a regular expression's source (the server matches it). */
  paths: string;
}


/**
 * The plugin, and the groups to pass to `build.rolldownOptions.output.codeSplitting.groups`
 * (after a group of the entry's libraries, which takes precedence).
 */
export function firstScreenChunks(root: string, screens: Screen[]) {
  /** Module id -> the chunk name of the screens that need it. */
  const chunkOf = new Map<string, string>();
  const routeIds = new Set(screens.flatMap((s) => s.routes.map((r) => path.resolve(root, r))));

  const plugin: Plugin = {
    name: 'portal:first-screen-chunks',
    apply: 'build',
    async buildEnd(error) {
      if (error) return;
      chunkOf.clear();
      const parse: ParseFn = (code) => this.parse(code) as unknown as { body: Node[] };
      const resolve: ResolveFn = (source, importer) => this.resolve(source, importer);
      const codeOf = (id: string) => this.getModuleInfo(id)?.code ?? null;
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      const initial = await modulesNeeded(entries, parse, resolve, codeOf);
      const users = new Map<string, string[]>();
      for (const screen of screens) {
        const roots = screen.routes.map((r) => path.resolve(root, r));
        for (const id of roots) if (!this.getModuleInfo(id)) this.error(`first-screen route ${id} is not in the build`);
        for (const id of await modulesNeeded(roots, parse, resolve, codeOf)) {
          if (initial.has(id) || routeIds.has(id)) continue; // the entry's, or a route's own chunk
          users.set(id, [...(users.get(id) ?? []), screen.name]);
        }
      }
      for (const [id, names] of users) chunkOf.set(id, names.length === screens.length ? 'screens' : `screen-${names.join('-')}`);
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (start: string[]) => {
        const seen = new Set<string>();
        const visit = (fileName: string) => {
          if (seen.has(fileName)) return;
          seen.add(fileName);
          for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
        };
        start.forEach(visit);
        return seen;
      };
      // What index.html already loads: the entry and its static imports.
      const loaded = closure(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
      const file: FirstScreensFile = {
        screens: screens.map((screen) => {
          const routeChunks = screen.routes.map((route) => {
            const id = path.resolve(root, route);
            const chunk = chunks.find((c) => c.facadeModuleId === id);
            if (!chunk) this.error(`no chunk for the first-screen route ${route}`);
            return chunk.fileName;
          });
          return { name: screen.name, paths: screen.paths, files: [...closure(routeChunks)].filter((f) => !loaded.has(f)) };
        }),
      };
      this.emitFile({ type: 'asset', fileName: FIRST_SCREENS_FILE, source: `${JSON.stringify(file, null, 2)}\n` });
    },
  };

  const names = ['screens', ...screens.map((s) => `screen-${s.name}`)];
  const groups = names.map((name) => ({
    name,
    test: (id: string) => chunkOf.get(id) === name,
    // Only the modules found above: following every import again would take whole libraries in
    // through their index modules.
    includeDependenciesRecursively: false,
  }));
  return { plugin, groups };
}
