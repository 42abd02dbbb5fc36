from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation


class UnparsableFile(Rule):
    """
    ## What it does
    Reports a file that jitlint could not lint: a syntax error (with the parser's reason and
    position), a file that is not valid text in its declared encoding (PEP 263 cookie, BOM or
    UTF-8), a binary file, or a file that could not be read.

    ## Why is this bad?
    Nothing in such a file was checked. The other files are still linted, and the run exits 1
    so that the problem is not missed in CI.
    """

    code = "JIT000"
    name = "unparsable-file"
    summary = "file could not be read or parsed, so it was not linted"
    severity = "error"

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        # Reported by the engine before any rule runs: a file that parsed has nothing to say.
        return iter(())
