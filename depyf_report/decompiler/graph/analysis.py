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


class Analysis:
    def __init__(self, graph: Graph):
        self.graph = graph
        self._pred_cache: list[list[int]] | None = None
        self._raised_from: dict[int, list[int]] | None = None
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
        for b, h in self._reraised_to_unreached():
            self.succs[b].append(h)
        self.idom = dominators([0, *set(self.exc_succ.values())], self.succs)
        self._intervals()
        self.ipdom = self._postdominators()
        self._normal_ipdom: dict[int, int | None] | None = None
        self.loops = self._loops()

    def _reraised_to_unreached(self) -> list[tuple[int, int]]:
        """(block, handler) for a handler no edge reaches but the exception a
        bookkeeping cleanup pops and re-raises (``COPY 3``, ``POP_EXCEPT``,
        ``RERAISE``): from each block raising into that cleanup. 3.13 protects nothing in ``try: try: ...``
        / ``finally: pass`` / ``except E:`` by the clause's handler but the finally
        handler's cleanup: left a root of the dominator tree, that handler's clause
        and the code after it would be no code of the statements around it."""
        graph = self.graph
        reached = {
            s for b, succs in enumerate(self.succs) if b not in self.transparent for s in succs
        }
        found = []
        for block in graph.blocks:
            cleanup = graph.handler_block(block)
            if cleanup is None or cleanup not in self.transparent or block.id in self.transparent:
                continue
            h = graph.handler_block(graph.blocks[cleanup])
            if h is not None and h not in self.transparent and h not in reached:
                found.append((block.id, h))
        return found

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
        returning = self.postdominators_to(("RETURN_VALUE",), normal=normal)
        if len(returning) == len(self.graph.blocks):
            return returning
        every = self.postdominators_to(("RETURN_VALUE",), also=self._last_reached(), normal=normal)
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

    def postdominators_to(self, exits, also=None, normal=False) -> dict[int, int | None]:
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
        idom = dominators([n], preds)
        return {b: (None if d in (n, None) else d) for b, d in idom.items() if b != n}

    def _loops(self) -> dict[int, set[int]]:
        """Loop header -> blocks of its natural loop (back edges: u -> h with h dom u).
        A for loop whose body never goes back (it returns, raises or breaks on every
        path) is a loop all the same: its header alone (an ``async for``'s header awaits
        the next item under the handler that ends it)."""
        graph = self.graph
        loops = {b.id: {b.id} for b in graph.blocks if graph.is_for_header(b.id)}
        for u, succs in enumerate(self.succs):
            for h in succs:
                if h <= u and self.dominates(h, u):
                    body = loops.setdefault(h, {h})
                    stack = [u]
                    while stack:
                        x = stack.pop()
                        if x not in body:
                            body.add(x)
                            stack.extend(self.preds(x))
        return loops

    def preds(self, x: int):
        preds = self._pred_cache
        if preds is None:
            preds = [[] for _ in self.succs]
            for u, succs in enumerate(self.succs):
                for s in succs:
                    preds[s].append(u)
            self._pred_cache = preds
        return preds[x]

    def raised_from(self, h: int) -> list[int]:
        """The blocks whose exceptions go to handler block ``h`` (bookkeeping ones too)."""
        found = self._raised_from
        if found is None:
            found = {}
            for block in self.graph.blocks:
                handler = self.graph.handler_block(block)
                if handler is not None:
                    found.setdefault(handler, []).append(block.id)
            self._raised_from = found
        return found.get(h, [])

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


def dominators(roots: list[int], succs) -> dict[int, int | None]:
    """Immediate dominators of the blocks reached from ``roots``, under a virtual root
    above them: None for a root, except one reached from an earlier root, which is
    dominated like any other block. Lengauer-Tarjan with path compression, since the
    walks up the tree that simpler iterative methods make cost as much as its depth,
    and a long function's post-dominator tree is deep."""
    order: list[int] = [VIRTUAL]  # depth-first order: a block's number is its place
    number: dict[int, int] = {}
    parent, preds = [0], [[]]  # by number: tree parent, reached predecessors

    def visit(node, above) -> int:
        number[node] = len(order)
        order.append(node)
        parent.append(above)
        preds.append([above])
        return number[node]

    for root in roots:
        if root in number:
            continue
        stack = [(visit(root, 0), iter(succs[root]))]
        while stack:
            here, successors = stack[-1]
            for s in successors:
                if s in number:
                    preds[number[s]].append(here)
                else:
                    stack.append((visit(s, here), iter(succs[s])))
                    break
            else:
                stack.pop()
    idom = _idoms(parent, preds)
    return {order[v]: (None if idom[v] == 0 else order[idom[v]]) for v in range(1, len(order))}


VIRTUAL = -2


def _idoms(parent: list[int], preds: list[list[int]]) -> list[int]:
    """Immediate dominators by depth-first number, from each number's tree parent and
    predecessors (Lengauer and Tarjan, 1979, with simple path compression)."""
    count = len(parent)
    semi, label, ancestor = list(range(count)), list(range(count)), [-1] * count
    idom, bucket = [0] * count, [[] for _ in range(count)]

    def best(v: int) -> int:
        """The number of least semidominator on v's path up the linked forest."""
        if ancestor[v] == -1:
            return v
        path, u = [], v
        while ancestor[ancestor[u]] != -1:
            path.append(u)
            u = ancestor[u]
        for u in reversed(path):  # from the top, so each step sees its compressed parent
            a = ancestor[u]
            if semi[label[a]] < semi[label[u]]:
                label[u] = label[a]
            ancestor[u] = ancestor[a]
        return label[v]

    for w in range(count - 1, 0, -1):
        for v in preds[w]:
            semi[w] = min(semi[w], semi[best(v)])
        bucket[semi[w]].append(w)
        p = ancestor[w] = parent[w]
        for v in bucket[p]:
            u = best(v)
            idom[v] = u if semi[u] < semi[v] else p
        bucket[p].clear()
    for w in range(1, count):
        if idom[w] != semi[w]:
            idom[w] = idom[idom[w]]
    return idom
