"""Extract the examples of README.md and docs/*.md and run them, so the docs cannot drift.

Conventions (the docs' "Contributing to the docs" section repeats them):

* A ```` ```console ```` block holds ``$ command`` lines, each followed by its exact expected
  output. The command runs with ``bash -c`` in the sandbox directory; its stdout must equal the
  unmarked lines that follow it, byte for byte (after one trailing newline). Lines starting with
  ``[stderr] `` are expected stderr: when a command shows any, its stderr must equal them; when it
  shows none, stderr is not compared. A line that is ``...`` (spaces around it allowed) stands
  for any number of lines (output shortened in the docs). A trailing ``# exit N`` comment on the command line
  expects exit status N; without it the command must exit 0.
* A ```` ```sh ```` block: every command (one a line; a line ending in ``\\`` continues on the
  next; blank and ``#`` lines skipped) runs in the sandbox and must exit 0, or the ``# exit N``
  it ends with. Output is not compared.
* A ```` ```python ```` block is executed (one fresh namespace per page, shared by the page's
  blocks, in the sandbox directory); a ```` ```pycon ```` block (``>>>`` lines) is compared as a
  doctest in the same namespace.
* A block that cannot run here is preceded by the line ``<!-- docs-test: skip (REASON) -->``
  (invisible in the rendered page); keep them rare and give the reason.
* Other blocks (```` ```text ````, ```` ```yaml ````, plain ```` ``` ````) are not run.

The sandbox (``make_sandbox``) is a temporary copy of the repository's ``examples/`` folder,
which holds every file the examples name (``gold.conllu``, ``system.conllu``,
``parser-a.conllu``, ``GOLD_DIR/``, ``SYSTEM_DIR/``, ``parser-a/``, ``parser-b/``, ...; its
README.md says what each is); ``testdata`` is a link there to the repository's. The README's
examples also run in a copy without that link: as a user runs them after ``cd examples``.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
TESTDATA = PROJECT / "testdata"

RUN_LANGUAGES = ("console", "sh", "python", "pycon")
SKIP_MARK = re.compile(r"<!--\s*docs-test:\s*skip\s*\((?P<reason>[^)]+)\)\s*-->")
FENCE = re.compile(r"^(?P<fence>`{3,})(?P<info>[^`]*)$")
EXIT_COMMENT = re.compile(r"\s+#\s*exit\s+(?P<status>\d+)\s*$")
STDERR_PREFIX = "[stderr] "
ELLIPSIS = "..."


@dataclass
class Block:
    """One fenced code block: its language, body, first body line (1-based) and skip reason."""

    language: str
    body: str
    line: int
    skip_reason: str | None = None


@dataclass
class ConsoleCommand:
    """One ``$`` command of a console block with what it must print and return."""

    command: str
    stdout: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    status: int = 0
    line: int = 0


class ExampleFailure(AssertionError):
    """An example did not do what its page says."""


def extract_blocks(text: str) -> list[Block]:
    """Every fenced block of a Markdown text, in order (unclosed fences raise ValueError)."""
    blocks = []
    lines = text.split("\n")
    index = 0
    pending_skip = None
    while index < len(lines):
        line = lines[index]
        skip = SKIP_MARK.search(line)
        if skip:
            pending_skip = skip.group("reason").strip()
            index += 1
            continue
        opening = FENCE.match(line)
        if not opening:
            if line.strip():
                pending_skip = None
            index += 1
            continue
        fence = opening.group("fence")
        language = (opening.group("info").split() or [""])[0]
        start = index + 1
        end = start
        while end < len(lines) and lines[end].rstrip() != fence:
            end += 1
        if end == len(lines):
            raise ValueError(f"line {index + 1}: code block not closed")
        blocks.append(Block(language, "\n".join(lines[start:end]) + "\n", start + 1, pending_skip))
        pending_skip = None
        index = end + 1
    return blocks


def _split_exit(command: str) -> tuple[str, int]:
    match = EXIT_COMMENT.search(command)
    if not match:
        return command, 0
    return command[: match.start()], int(match.group("status"))


def parse_console(block: Block) -> list[ConsoleCommand]:
    """The commands of a console block, each with its expected output."""
    commands: list[ConsoleCommand] = []
    for offset, line in enumerate(block.body.rstrip("\n").split("\n")):
        if line.startswith("$ "):
            command, status = _split_exit(line[2:])
            commands.append(ConsoleCommand(command, status=status, line=block.line + offset))
        elif not commands:
            raise ValueError(f"line {block.line + offset}: output before the first '$ ' command")
        elif line.startswith(STDERR_PREFIX):
            commands[-1].stderr.append(line[len(STDERR_PREFIX):])
        else:
            commands[-1].stdout.append(line)
    return commands


def parse_sh(block: Block) -> list[tuple[str, int, int]]:
    """The commands of a sh block as (command, expected status, line)."""
    commands = []
    pending = ""
    pending_line = 0
    for offset, line in enumerate(block.body.split("\n")):
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if not pending:
            pending_line = block.line + offset
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        command, status = _split_exit(pending + line)
        commands.append((command, status, pending_line))
        pending = ""
    return commands


def lines_match(expected: list[str], actual: list[str]) -> bool:
    """True when ``actual`` equals ``expected``, a line ``...`` matching any lines."""
    marks = [index for index, line in enumerate(expected) if line.strip() == ELLIPSIS]
    if not marks:
        return expected == actual
    cut = marks[0]
    head, rest = expected[:cut], expected[cut + 1:]
    if actual[:cut] != head:
        return False
    return any(lines_match(rest, actual[start:]) for start in range(cut, len(actual) + 1))


def _output_lines(text: str) -> list[str]:
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n") if text else []


def _environment(sandbox: Path) -> dict[str, str]:
    environment = dict(os.environ)
    environment["HOME"] = str(sandbox)  # examples that install into ~ stay in the sandbox
    environment["PATH"] = str(Path(sys.executable).parent) + os.pathsep + environment["PATH"]
    environment["COLUMNS"] = "100"
    environment.pop("CONLL_EVAL_PURE", None)
    return environment


def run_command(command: str, sandbox: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """``bash -c COMMAND`` in the sandbox with this interpreter's scripts first on PATH."""
    return subprocess.run(["bash", "-c", command], cwd=sandbox, capture_output=True,
                          text=True, env=_environment(sandbox), timeout=timeout)


def check_console(block: Block, sandbox: Path, where: str) -> None:
    for expected in parse_console(block):
        result = run_command(expected.command, sandbox)
        place = f"{where}:{expected.line}: $ {expected.command}"
        if result.returncode != expected.status:
            raise ExampleFailure(f"{place}\nexit {result.returncode}, expected {expected.status}"
                                 f"\nstderr:\n{result.stderr}")
        if not lines_match(expected.stdout, _output_lines(result.stdout)):
            raise ExampleFailure(f"{place}\nexpected stdout:\n" + "\n".join(expected.stdout)
                                 + f"\nactual stdout:\n{result.stdout}")
        if expected.stderr and not lines_match(expected.stderr, _output_lines(result.stderr)):
            raise ExampleFailure(f"{place}\nexpected stderr:\n" + "\n".join(expected.stderr)
                                 + f"\nactual stderr:\n{result.stderr}")


def check_sh(block: Block, sandbox: Path, where: str) -> None:
    for command, status, line in parse_sh(block):
        result = run_command(command, sandbox)
        if result.returncode != status:
            raise ExampleFailure(f"{where}:{line}: $ {command}\nexit {result.returncode}, expected "
                                 f"{status}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}")


def check_python(block: Block, sandbox: Path, where: str, namespace: dict) -> None:
    previous = Path.cwd()
    os.chdir(sandbox)
    try:
        if block.language == "python":
            try:
                exec(compile(block.body, f"{where}:{block.line}", "exec"), namespace)
            except Exception as error:  # any failure of the example is the test's failure
                raise ExampleFailure(f"{where}:{block.line}: {type(error).__name__}: {error}")
            return
        test = doctest.DocTestParser().get_doctest(block.body, namespace, where, where, block.line)
        output: list[str] = []
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test, out=output.append, clear_globs=False)
        if runner.failures:
            raise ExampleFailure("".join(output))
    finally:
        os.chdir(previous)


def check_page(path: Path, sandbox: Path) -> tuple[int, list[str]]:
    """Run every example of a page in the sandbox: (examples run, skip reasons); raises
    ExampleFailure on the first example that does not do what the page shows."""
    where = path.name
    namespace: dict = {"__name__": "__docs__"}
    ran, skipped = 0, []
    for block in extract_blocks(path.read_text(encoding="utf-8")):
        if block.language not in RUN_LANGUAGES:
            continue
        if block.skip_reason:
            skipped.append(f"{where}:{block.line}: {block.skip_reason}")
            continue
        if block.language == "console":
            check_console(block, sandbox, where)
        elif block.language == "sh":
            check_sh(block, sandbox, where)
        else:
            check_python(block, sandbox, where, namespace)
        ran += 1
    return ran, skipped


#: the folder the examples run in, shipped in the repository: ``cd examples`` and every command
#: of the README's examples runs as printed (the docs' examples too, with ``testdata`` beside)
EXAMPLES = PROJECT / "examples"


def make_sandbox(directory: Path, testdata: bool = True) -> Path:
    """A copy of ``examples/`` in ``directory`` (the examples may write files; the shipped
    folder stays as it is), with ``testdata`` a link to the repository's when ``testdata``
    (the docs pages name a few of its files); returns it.  Nothing is generated: the files
    are the shipped ones."""
    shutil.copytree(EXAMPLES, directory)
    if testdata:
        (directory / "testdata").symlink_to(TESTDATA, target_is_directory=True)
    return directory


def doc_pages() -> list[Path]:
    """The pages whose examples are tested: README.new.md while it exists (before the swap),
    else README.md, and every docs/*.md."""
    readme = PROJECT / "README.new.md"
    if not readme.exists():
        readme = PROJECT / "README.md"
    return [readme] + sorted((PROJECT / "docs").glob("*.md"))
