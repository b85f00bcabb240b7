/**
 * A persistent (immutable) map from strings to values: `set` returns a new map and leaves the old
 * one untouched, copying only the path to the changed entry (a 32-way hash trie, ~log32 n nodes).
 *
 * The supervisor's decider is pure — `evolve(state, fact)` returns a new state — and its state
 * remembers every execution it has seen (an ended one too, so that a redelivered trigger never
 * starts it again). Copying a whole `Map` per fact would make a rebuild quadratic in history.
 */
type Node<V> = Branch<V> | Leaf<V>;
interface Branch<V> {
  readonly kind: 'branch';
  readonly children: readonly (Node<V> | undefined)[];
}
interface Leaf<V> {
  readonly kind: 'leaf';
  readonly hash: number;
  /** keys whose 32-bit hashes collide */
  readonly entries: readonly (readonly [string, V])[];
}

const BITS = 5;
const MASK = (1 << BITS) - 1;

/** FNV-1a, 32 bits. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const slot = (hash: number, shift: number): number => (hash >>> shift) & MASK;

function insert<V>(node: Node<V> | undefined, shift: number, hash: number, key: string, value: V): [Node<V>, boolean] {
  if (!node) return [{ kind: 'leaf', hash, entries: [[key, value]] }, true];
  if (node.kind === 'leaf') {
    if (node.hash === hash) {
      const at = node.entries.findIndex(([k]) => k === key);
      if (at < 0) return [{ ...node, entries: [...node.entries, [key, value]] }, true];
      return [{ ...node, entries: node.entries.map((e, i) => (i === at ? ([key, value] as const) : e)) }, false];
    }
    // Two hashes differ somewhere in their 32 bits, so splitting terminates by shift 30.
    const children: (Node<V> | undefined)[] = [];
    children[slot(node.hash, shift)] = node;
    return insert<V>({ kind: 'branch', children }, shift, hash, key, value);
  }
  const index = slot(hash, shift);
  const [child, added] = insert(node.children[index], shift + BITS, hash, key, value);
  const children = [...node.children];
  children[index] = child;
  return [{ kind: 'branch', children }, added];
}

export class PersistentMap<V> {
  private static readonly EMPTY = new PersistentMap<never>(undefined, 0);

  private constructor(
    private readonly root: Node<V> | undefined,
    readonly size: number,
  ) {}

  static empty<V>(): PersistentMap<V> {
    return PersistentMap.EMPTY as PersistentMap<V>;
  }

  get(key: string): V | undefined {
    const hash = hashOf(key);
    let node = this.root;
    for (let shift = 0; node; shift += BITS) {
      if (node.kind === 'leaf') return node.hash === hash ? node.entries.find(([k]) => k === key)?.[1] : undefined;
      node = node.children[slot(hash, shift)];
    }
    return undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: V): PersistentMap<V> {
    const [root, added] = insert(this.root, 0, hashOf(key), key, value);
    return new PersistentMap(root, added ? this.size + 1 : this.size);
  }

  /** Every entry, in no particular order. */
  *entries(): IterableIterator<readonly [string, V]> {
    const stack: (Node<V> | undefined)[] = [this.root];
    while (stack.length > 0) {
      const node = stack.pop();
      if (!node) continue;
      if (node.kind === 'leaf') yield* node.entries;
      else stack.push(...node.children);
    }
  }
}
