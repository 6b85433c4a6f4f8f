"""The package's import graph (issue 31): no circles, and every import inside a function says
why it is there (start-up time, an optional dependency).  Read from the sources with ``ast``:
every ``import`` and ``from ... import`` of a conll_eval module, at the head or inside a
function, except those under ``if TYPE_CHECKING:`` (annotations only, never run)."""
import ast
from pathlib import Path
from typing import Dict, List, Set, Tuple

PACKAGE = Path(__file__).resolve().parent.parent / "conll_eval"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> Dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _type_checking_nodes(tree: ast.Module) -> Set[int]:
    hidden = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden |= {id(n) for child in node.body for n in ast.walk(child)}
    return hidden


def _targets(node, module: str, is_package: bool, known: Dict[str, Path]) -> List[str]:
    """The conll_eval modules one import statement loads."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in known]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    submodules = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in known]
    # ``from pkg import sub`` of submodules only loads them: the package itself is loaded before
    # any module in it, so it adds no edge of its own
    names = submodules if len(submodules) == len(node.names) else [target] + submodules
    return [n for n in names if n in known and n != module]


def _imports() -> Tuple[Dict[str, Set[str]], List[Tuple[str, int, bool]]]:
    """(graph: module -> modules it imports, [(module, line, has a reason)] of the imports
    inside functions: a comment on the import's line, a comment line above it in its
    function, or the reason of the import just before it)."""
    known = _modules()
    graph: Dict[str, Set[str]] = {m: set() for m in known}
    inner = []
    for module, path in known.items():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        tree = ast.parse(source)
        hidden = _type_checking_nodes(tree)
        # the first line of the function each node is in (a reason may open the function)
        in_function = {id(n): f.lineno for f in ast.walk(tree)
                       if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                       for n in ast.walk(f)}
        previous_reason = {}
        for node in sorted((n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))),
                           key=lambda n: n.lineno):
            if id(node) in hidden:
                continue
            graph[module] |= set(_targets(node, module, path.name == "__init__.py", known))
            if id(node) in in_function:
                opening = lines[in_function[id(node)]:node.lineno - 1]
                reason = ("#" in lines[node.lineno - 1]
                          or any(line.strip().startswith("#") for line in opening)
                          or previous_reason.get(node.lineno - 1, False))
                previous_reason[node.end_lineno] = reason  # a group shares the first's reason
                inner.append((module, node.lineno, reason))
    return graph, inner


def _cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_no_import_circles():
    graph, _ = _imports()
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_every_import_inside_a_function_says_why():
    _, inner = _imports()
    silent = [f"{module}:{line}" for module, line, reason in inner if not reason]
    assert silent == [], "an import inside a function needs a comment saying why it is there"
