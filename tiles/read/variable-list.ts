/**
 * A caller's list of variable names resolved against one published version:
 * the VarStates, which block kinds it reads, its read rules and the builder
 * of its result object. Lookups cache these per version by the array's identity, so
 * callers that pass the same constant array on every request pay the name
 * lookups once per version.
 */
import { MASK_ANY, type VarState } from './var-state.js';

export interface VariableList {
  /** The caller's array: its identity is the cache key. */
  names: readonly string[];
  /** Its content when resolved, so that an array changed in place is resolved again. */
  copy: readonly string[];
  /** Per name its variable, or null when the version does not carry it (value null). */
  vars: (VarState | null)[];
  /** Bit k set: the list reads blocks of kind k (./block.ts), its masks' helpers included. */
  kinds: number;
  /** First time-varying variable of the list (a lookup without a time refuses it), or null. */
  firstTimeVarying: string | null;
  /** Bit m set: the list has variables with mask code m (version-state.ts MASK_*), m ≥ 1. */
  masks: number;
  /** Whether any variable of the list is read 'nearest'. */
  anyNearest: boolean;
  /** Whether any variable of the list is a statistic over an interval (read from one step). */
  anyInterval: boolean;
  /**
   * Helpers gathered after the list's own variables when it has masked
   * variables: land_sea_mask, then the nearest-cell index of each mask kind
   * used (null where the store lacks it).
   */
  aux: (VarState | null)[];
  /** Builds the result object from the values in list order: one object literal, so every result has one shape. */
  build: (values: readonly (number | null)[]) => Record<string, number | null>;
}

/** Resolved lists kept per version; callers use a handful of constant lists. */
const LISTS_KEPT = 8;

/** What a list is resolved against: a version's variables (./version-state.ts). */
interface ListSource {
  vars: ReadonlyMap<string, VarState>;
  maskVar: VarState | null;
  nearestVar: readonly (VarState | null)[];
}

/** A version with its recently resolved lists. */
interface ListCache extends ListSource {
  lists: VariableList[];
  listCursor: number;
}

export function resolveList(vs: ListSource, names: readonly string[]): VariableList {
  const vars: (VarState | null)[] = [];
  let kinds = 0;
  let masks = 0;
  let anyNearest = false;
  let anyInterval = false;
  let firstTimeVarying: string | null = null;
  for (const name of names) {
    const v = vs.vars.get(name) ?? null;
    vars.push(v);
    if (!v) continue;
    kinds |= 1 << v.kind;
    if (v.mask !== MASK_ANY) masks |= 1 << v.mask;
    if (v.nearest) anyNearest = true;
    if (v.interval) anyInterval = true;
    if (!v.isStatic && firstTimeVarying === null) firstTimeVarying = name;
  }
  const aux: (VarState | null)[] = masks === 0 ? [] : [vs.maskVar, vs.nearestVar[1], vs.nearestVar[2]];
  for (const a of aux) if (a) kinds |= 1 << a.kind;
  const copy = [...names];
  return { names, copy, vars, kinds, firstTimeVarying, masks, anyNearest, anyInterval, aux, build: resultBuilder(copy) };
}

/**
 * A function returning `{[names[0]]: v[0], ...}` as one object literal,
 * compiled once per list (as fast-json-stringify compiles its serialisers):
 * assigning 22 values by name into a clone of a template went through V8's
 * megamorphic keyed store and cost about 0.15 µs of a 1.5 µs lookup. A name
 * `__proto__` would set the prototype in a literal: such a list is built
 * with Object.fromEntries (own properties only).
 */
function resultBuilder(names: readonly string[]): VariableList['build'] {
  if (names.includes('__proto__')) return (v) => Object.fromEntries(names.map((n, k) => [n, v[k]!]));
  const body = names.map((n, k) => `${JSON.stringify(n)}: v[${k}]`).join(', ');
  return new Function('v', `return { ${body} };`) as VariableList['build'];
}

function unchanged(l: VariableList, names: readonly string[]): boolean {
  const copy = l.copy;
  if (copy.length !== names.length) return false;
  for (let k = 0; k < copy.length; k++) if (copy[k] !== names[k]) return false;
  return true;
}

/** `names` resolved against `vs`, from the version's few cached lists (replaced round-robin; the content is compared too). */
export function variableList(vs: ListCache, names: readonly string[]): VariableList {
  const lists = vs.lists;
  for (let k = 0; k < lists.length; k++) {
    const l = lists[k]!;
    if (l.names === names) return unchanged(l, names) ? l : (lists[k] = resolveList(vs, names));
  }
  const l = resolveList(vs, names);
  if (lists.length < LISTS_KEPT) lists.push(l);
  else {
    lists[vs.listCursor] = l;
    vs.listCursor = (vs.listCursor + 1) % LISTS_KEPT;
  }
  return l;
}
