"""Graph facts the structurer needs: dominators, post-dominators, natural loops, and which
exception handlers are compiler bookkeeping rather than user code."""

from __future__ import annotations

from .cfg import Graph

# A handler made only of these is cleanup the compiler adds around a construct.
BOOKKEEPING = {
    "COPY",
    "SWAP",
    "POP_TOP",
    "POP_EXCEPT",
    "RERAISE",
    "LOAD_CONST",
    "STORE_FAST",
    "STORE_NAME",
    "STORE_DEREF",
    "DELETE_FAST",
    "DELETE_NAME",
    "DELETE_DEREF",
}
EXIT = -1


class Analysis:
    def __init__(self, graph: Graph):
        self.graph = graph
        blocks = graph.blocks
        self.transparent = {b.id for b in blocks if self._is_bookkeeping(b)}
        self.exc_succ = {}
        for b in blocks:
            h = graph.handler_block(b)
            if h is not None and h not in self.transparent:
                self.exc_succ[b.id] = h
        self.succs = [
            list(b.succs) + ([self.exc_succ[b.id]] if b.id in self.exc_succ else []) for b in blocks
        ]
        self.idom = _dominators(
            len(blocks), [0] + [h for h in set(self.exc_succ.values())], self.succs
        )
        self._intervals()
        self.ipdom = self._postdominators()
        self._normal_ipdom: dict[int, int | None] | None = None
        self.loops = self._loops()

    def handler_of(self, block_id: int) -> int | None:
        """The block of the user-visible handler protecting ``block_id``."""
        return self.exc_succ.get(block_id)

    def _is_bookkeeping(self, block) -> bool:
        instrs = self.graph.instrs
        i = block.start
        while i < len(instrs):
            ins = instrs[i]
            if ins.op not in BOOKKEEPING:
                return False
            if ins.op == "LOAD_CONST" and ins.argval is not None:
                return False
            if ins.op == "RERAISE":
                return True
            if ins.target is not None:
                return False
            i += 1
        return False

    def _postdominators(self, normal=False) -> dict[int, int | None]:
        """Immediate post-dominators, counting only paths that return: a ``raise`` does
        not end an if-statement's branches. Code from which every path raises gets the
        ones computed with raising paths included."""
        returning = self._postdominators_to(("RETURN_VALUE",), normal=normal)
        if len(returning) == len(self.graph.blocks):
            return returning
        every = self._postdominators_to(("RETURN_VALUE",), also=self._last_reached(), normal=normal)
        return {b: returning[b] if b in returning else every.get(b) for b in every}

    @property
    def normal_ipdom(self) -> dict[int, int | None]:
        """Immediate post-dominators along normal edges: where branches meet when
        nothing raises (an if inside a try body meets where it does, whatever the
        handler does)."""
        if self._normal_ipdom is None:
            self._normal_ipdom = self._postdominators(normal=True)
        return self._normal_ipdom

    def _last_reached(self) -> int:
        """Where code that always raises ends: the last block laid out that the entry
        reaches without raising (an except clause's re-raise of what it did not match,
        laid out last by 3.10, is no place where branches meet)."""
        reached, todo = {0}, [0]
        while todo:
            for s in self.graph.blocks[todo.pop()].succs:
                if s not in reached:
                    reached.add(s)
                    todo.append(s)
        return max(reached)

    def _postdominators_to(self, exits, also=None, normal=False) -> dict[int, int | None]:
        """Immediate post-dominators with blocks ending in ``exits`` (and block ``also``)
        as ends; ``normal``: along normal edges only, where raising leaves no path."""
        n = len(self.graph.blocks)
        instrs = self.graph.instrs
        preds: list[list[int]] = [[] for _ in range(n + 1)]
        for b in self.graph.blocks:
            for s in b.succs if normal else self.succs[b.id]:
                preds[s].append(b.id)
            if instrs[b.last].op in exits or b.id == also:
                preds[n].append(b.id)  # reversed graph: EXIT -> exiting block
        idom = _dominators(n + 1, [n], preds)
        return {b: (None if d in (n, None) else d) for b, d in idom.items() if b != n}

    def _loops(self) -> dict[int, set[int]]:
        """Loop header -> blocks of its natural loop (back edges: u -> h with h dom u)."""
        loops: dict[int, set[int]] = {}
        for u, succs in enumerate(self.succs):
            for h in succs:
                if h <= u and self.dominates(h, u):
                    body = loops.setdefault(h, {h})
                    stack = [u]
                    while stack:
                        x = stack.pop()
                        if x not in body:
                            body.add(x)
                            stack.extend(self._preds(x))
        return loops

    def _preds(self, x: int):
        preds = getattr(self, "_pred_cache", None)
        if preds is None:
            preds = [[] for _ in self.succs]
            for u, succs in enumerate(self.succs):
                for s in succs:
                    preds[s].append(u)
            self._pred_cache = preds
        return preds[x]

    def dominates(self, a: int, b: int) -> bool:
        """Whether ``a`` dominates ``b``, in constant time from dominator-tree intervals."""
        if a not in self._enter or b not in self._enter:
            return False
        return self._enter[a] <= self._enter[b] and self._leave[b] <= self._leave[a]

    def _intervals(self) -> None:
        children: dict[int, list[int]] = {}
        roots = []
        for node, parent in self.idom.items():
            if parent is None:
                roots.append(node)
            else:
                children.setdefault(parent, []).append(node)
        self._enter, self._leave = {}, {}
        clock = 0
        for root in roots:
            stack = [(root, False)]
            while stack:
                node, done = stack.pop()
                clock += 1
                if done:
                    self._leave[node] = clock
                    continue
                self._enter[node] = clock
                stack.append((node, True))
                stack.extend((c, False) for c in children.get(node, ()))


def _dominators(n: int, roots: list[int], succs) -> dict[int, int | None]:
    """Cooper-Harvey-Kennedy iterative dominators from a virtual root above ``roots``.
    Its cost follows the nodes reached, not ``n``: loop-local post-dominators call it
    once per loop."""
    order: list[int] = []
    seen = set()
    reached = []  # a root reached from an earlier one is dominated like any other block
    for root in roots:
        if root in seen:
            continue
        reached.append(root)
        stack = [(root, iter(succs[root]))]
        seen.add(root)
        while stack:
            node, it = stack[-1]
            for s in it:
                if s not in seen:
                    seen.add(s)
                    stack.append((s, iter(succs[s])))
                    break
            else:
                order.append(node)
                stack.pop()
    rpo = order[::-1]
    root_set = set(reached)
    number = {node: i for i, node in enumerate(rpo)}
    preds: dict[int, list[int]] = {node: [] for node in rpo}
    for node in rpo:
        for s in succs[node]:
            if s in preds:
                preds[s].append(node)
    virtual = -2
    idom: dict[int, int] = {r: virtual for r in reached}
    number[virtual] = -1

    def intersect(a, b):
        while a != b:
            while number[a] > number[b]:
                a = idom[a]
            while number[b] > number[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for node in rpo:
            if node in root_set:
                continue
            new = None
            for p in preds[node]:
                if p in idom:
                    new = p if new is None else intersect(p, new)
            if new is not None and idom.get(node) != new:
                idom[node] = new
                changed = True
    return {k: (None if v == virtual else v) for k, v in idom.items()}
