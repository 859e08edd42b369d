/**
 * The tools the fixture lists, as vectors/rules/tools.json declares them for all four servers. `npm run build` copies
 * that file next to this module (dist/tools.json), so the fixture reads it wherever dist/ runs, a container included.
 * A tool has name, description, inputSchema and optionally outputSchema; any other member is refused, as the other
 * servers' readers refuse it, so nothing the table declares is silently left out of this server's list.
 */
import { readFileSync } from 'node:fs';

export const TOOL_TABLE_FORMAT = 'tool-table/1';
const MEMBERS = new Set(['name', 'description', 'inputSchema', 'outputSchema']);

export interface ToolDeclaration {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
}

/** The table copied beside this module by the build. */
export function shippedToolTable(): unknown {
  return JSON.parse(readFileSync(new URL('./tools.json', import.meta.url), 'utf8'));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * `server`'s tools in the table's order. Their names must be exactly `served`, the tools this fixture has handlers
 * for: a table that renames, adds or drops one is refused.
 */
export function toolDeclarations(table: unknown, server: string, served: readonly string[]): ToolDeclaration[] {
  if (!isObject(table) || table['format'] !== TOOL_TABLE_FORMAT) {
    throw new Error(`the tool table's format must be "${TOOL_TABLE_FORMAT}"`);
  }
  const tools = table[server];
  if (!Array.isArray(tools)) throw new Error(`the tool table has no "${server}" array`);
  const declared = tools.map((tool: unknown): ToolDeclaration => {
    if (!isObject(tool)) throw new Error(`the tool table's ${server} tools must be objects`);
    const name = tool['name'];
    for (const member of Object.keys(tool)) {
      if (!MEMBERS.has(member)) {
        throw new Error(`the tool table's ${server} tool ${JSON.stringify(name)} has a member this server does not pass on: ${member}`);
      }
    }
    const { description, inputSchema, outputSchema } = tool;
    if (typeof name !== 'string' || name === '' || typeof description !== 'string' || description === '') {
      throw new Error(`the tool table's ${server} tool ${JSON.stringify(name)} needs a non-empty name and description`);
    }
    if (!isObject(inputSchema) || (outputSchema !== undefined && !isObject(outputSchema))) {
      throw new Error(`the tool table's ${name} needs an object inputSchema (and outputSchema, if any)`);
    }
    return outputSchema === undefined ? { name, description, inputSchema } : { name, description, inputSchema, outputSchema };
  });
  const names = declared.map((tool) => tool.name);
  if (new Set(names).size !== names.length || JSON.stringify([...names].sort()) !== JSON.stringify([...served].sort())) {
    throw new Error(`the tool table's ${server} tools are ${JSON.stringify(names)}, but this server serves ${JSON.stringify(served)}`);
  }
  return declared;
}
