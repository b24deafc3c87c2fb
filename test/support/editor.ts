// TypeScript's language service over a project: what an editor shows a user while they type. Files given as text
// are read from memory (code half-typed, as in an editor); everything else, the package under test included, from disk.
import { join } from "node:path";
import ts from "typescript";

export interface Editor {
  /** The names completion offers at the offset after the first occurrence of `needle` in `file`. */
  completions(file: string, needle: string, offset?: number): string[];
  /** What a hover shows at the offset after the first occurrence of `needle`: signature, documentation and JSDoc tags. */
  hover(file: string, needle: string, offset?: number): string;
  /** The syntactic and semantic errors in `file`, as messages. */
  errors(file: string): string[];
  /**
   * Builds and checks the program now, which the first query would otherwise pay for: seconds on a busy machine, which
   * belong in a test's setup (under its own timeout), not in the first test's time.
   */
  load(): void;
}

/**
 * An editor over `dir`'s tsconfig.json (compiler options as given there, overridden by `options`) with `files`
 * (name relative to `dir` → text) open in it.
 */
export function openEditor(dir: string, files: Record<string, string>, options: ts.CompilerOptions = {}): Editor {
  const config = ts.getParsedCommandLineOfConfigFile(join(dir, "tsconfig.json"), options, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  });
  if (!config) throw new Error(`no tsconfig.json in ${dir}`);
  const open = new Map(Object.entries(files).map(([name, text]) => [join(dir, name), text]));
  const read = (name: string) => open.get(name) ?? ts.sys.readFile(name);
  const service = ts.createLanguageService({
    getScriptFileNames: () => [...open.keys()],
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) => {
      const text = read(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => config.options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (name) => open.has(name) || ts.sys.fileExists(name),
    readFile: read,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });
  const position = (file: string, needle: string, offset: number) => {
    const at = files[file]?.indexOf(needle) ?? -1;
    if (at < 0) throw new Error(`${needle} is not in ${file}`);
    return at + offset;
  };
  return {
    completions: (file, needle, offset = needle.length) =>
      service.getCompletionsAtPosition(join(dir, file), position(file, needle, offset), {})?.entries.map((entry) => entry.name) ?? [],
    hover: (file, needle, offset = 0) => {
      const info = service.getQuickInfoAtPosition(join(dir, file), position(file, needle, offset));
      if (!info) return "";
      const tags = (info.tags ?? []).map((tag) => `@${tag.name} ${ts.displayPartsToString(tag.text)}`);
      return [ts.displayPartsToString(info.displayParts), ts.displayPartsToString(info.documentation), ...tags].join("\n").trim();
    },
    load: () => {
      for (const name of open.keys()) service.getSemanticDiagnostics(name);
    },
    errors: (file) =>
      [...service.getSyntacticDiagnostics(join(dir, file)), ...service.getSemanticDiagnostics(join(dir, file))].map((diagnostic) =>
        ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
      ),
  };
}
