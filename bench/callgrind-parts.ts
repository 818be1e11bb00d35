// Splits a callgrind dump's instructions into V8's compiler, its garbage collector and the rest (the
// work itself), by function name. A process's whole count is not steady under valgrind: how much
// TurboFan recompiles and when the collector runs depend on wall time (the memory reducer's timers,
// the JIT's tier-up and flush heuristics), and wall time under valgrind swings with the machine's load.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Instructions of one dump by part; `total` is the sum of the three (the dump's own cost lines). */
export interface DumpParts {
  total: number;
  /** V8's parser, bytecode and machine-code compilers (TurboFan, Maglev, Sparkplug). */
  compile: number;
  /** V8's garbage collector (scavenges, marking, sweeping) and its bookkeeping. */
  collect: number;
  /** Everything else: the JavaScript and the runtime it calls, node:http, libuv, the kernel interface. */
  work: number;
}

const COMPILE =
  /v8::internal::(compiler|maglev|baseline|interpreter|turboshaft)::|v8::internal::(Compiler|Parser|PreParser|Scanner|OptimizingCompileDispatcher|OptimizedCompilationJob|TurbofanCompilationJob)\b/;
const COLLECT =
  /v8::internal::\w*(Heap(?!Object|Number)|Scaveng|Sweep|Mark(?!er)|Evacuat|GCTracer|RememberedSet|Compactor|MemoryReducer|MemoryAllocator|Unmapper|GlobalHandles|SemiSpace|PagedSpace)|IterateObjectCache|RootScavengeVisitor/;

/** The parts of the first dump (`-d`) written to `folder`. */
export function readDumpParts(folder: string): DumpParts {
  const dump = readdirSync(folder).find((name) => name.startsWith('callgrind.out.'));
  if (dump === undefined) throw new Error(`no callgrind dump in ${folder}`);
  return partsOf(readFileSync(join(folder, dump), 'utf8'));
}

/**
 * Sums the self cost of each function (callgrind's format: `fn=(id) name` names a function once,
 * later `fn=(id)` alone; the cost line after a `calls=` line is the callee's inclusive cost, not
 * the caller's own).
 */
export function partsOf(text: string): DumpParts {
  const names = new Map<string, string>();
  const parts = { total: 0, compile: 0, collect: 0, work: 0 };
  let part: 'compile' | 'collect' | 'work' = 'work';
  let isCallCost = false;
  for (const line of text.split('\n')) {
    const first = line.charCodeAt(0);
    const isCost = (first >= 48 && first <= 57) || first === 43 || first === 45 || first === 42;
    if (isCost) {
      if (isCallCost) {
        isCallCost = false;
        continue;
      }
      const cost = Number(line.split(' ')[1] ?? 0);
      parts.total += cost;
      parts[part] += cost;
    } else if (line.startsWith('calls=')) isCallCost = true;
    else if (line.startsWith('fn=') || line.startsWith('cfn=')) {
      const match = /^c?fn=\((\d+)\)(?: (.*))?$/.exec(line);
      if (match === null) continue;
      const [, id, name] = match;
      if (name !== undefined) names.set(id!, name);
      if (line.startsWith('fn=')) {
        const known = names.get(id!) ?? '';
        part = COMPILE.test(known) ? 'compile' : COLLECT.test(known) ? 'collect' : 'work';
      }
    }
  }
  return parts;
}
