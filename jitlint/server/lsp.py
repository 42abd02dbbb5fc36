"""The protocol side of ``jitlint server`` (pygls 2, lsprotocol).

* Open Python documents are linted from the editor's buffer on open and, debounced, on change;
  notebooks (LSP 3.17 notebook sync) as the CLI lints their ``.ipynb``, with each finding
  published on its cell.  Findings carry the rule's code, a severity, a link to the rule's
  docs (``codeDescription``) and source ``jitlint``.
* A save (or a watched file changing on disk) may change what other modules import: the
  project's layout is walked again and every open document is linted again.  A
  pyproject.toml that changes applies at once: the settings are read for every lint.
* Code actions: the safe fixes (``jitlint check --fix``'s, as a workspace edit; also as
  ``source.fixAll.jitlint``) and ``# noqa: CODE`` on the finding's line.  Hover on a finding
  shows its rule's explanation, as ``jitlint rule CODE`` prints it.
* Linting runs in one worker thread, so the server keeps answering while it lints.  A
  document whose analysis fails (a jitlint bug) is reported in the server's log (stderr and
  ``window/logMessage``) and gets no findings; every other document is served as before.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace.position_codec import ServerTextPosition

from jitlint import __version__
from jitlint.config import Settings
from jitlint.docs import rule_url
from jitlint.engine import Diagnostic, forget_project_layout, reuse_parsed_statements
from jitlint.notebook import NOTEBOOK_SUFFIX, split_lines
from jitlint.server.analysis import (BufferFix, Linted, NotebookCell, buffer_bytes, comment_fits,
                                     fix_buffer, line_edits, lint_buffer, notebook_bytes,
                                     rule_explanation, with_noqa)

logger = logging.getLogger("jitlint.server")

SOURCE = "jitlint"
# After the last keystroke: long enough to lint once per burst of typing, short enough to
# stay within the 300 ms budget of docs/performance.md (it counts against it).
DEBOUNCE_SECONDS = 0.05
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.jitlint"
PYTHON_SUFFIXES = (".py", ".pyi")
SEVERITIES = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}
WATCHED = ("**/pyproject.toml", "**/*.py", "**/*.pyi")


@dataclass
class Snapshot:
    """One version of a document (a Python file or a notebook) as it is sent to the linter."""

    uri: str  # the document's, or the notebook's
    version: Optional[int]
    path: str
    data: bytes
    # uri -> text of each part findings are published on: the document, or the code cells
    parts: dict[str, str] = field(default_factory=dict)
    cell_uris: list[str] = field(default_factory=list)  # a notebook's cells, in order
    cells: list[NotebookCell] = field(default_factory=list)


@dataclass
class Published:
    """The findings published on one document or cell: for hover and code actions."""

    target: str  # the uri that was linted (the notebook of a cell)
    version: Optional[int]  # the target's version that was linted
    findings: list[tuple[Diagnostic, types.Diagnostic]]
    settings: Optional[Settings]  # those it was linted with (the fixes use them too)


class JitlintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "jitlint", __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[types.NotebookDocumentFilterWithNotebook(
                    notebook="jupyter-notebook",
                    cells=[types.NotebookCellLanguage(language="python")])],
                save=True))
        # One thread: lints run one after another, never two at once on the engine's state.
        self.linter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jitlint-lint")
        self.pending: dict[str, asyncio.Task] = {}  # target uri -> its scheduled lint
        self.published: dict[str, Published] = {}  # document or cell uri -> its findings
        self.cells_published: dict[str, list[str]] = {}  # notebook uri -> cell uris published
        self.reported: set[str] = set()  # messages already logged once (notes, config errors)
        self.shut_down = False  # the client asked for a shutdown before exit

    # ------------------------------------------------------------------ documents
    def snapshot(self, uri: str) -> Optional[Snapshot]:
        """What to lint for ``uri`` now: a Python document, or a notebook with its cells."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is not None:
            cells, parts, uris = [], {}, []
            for cell in notebook.cells:
                text = self.workspace.get_text_document(cell.document).source \
                    if cell.kind == types.NotebookCellKind.Code else ""
                cells.append(NotebookCell(cell.kind == types.NotebookCellKind.Code, text,
                                          cell.metadata))
                uris.append(cell.document)
                if cell.kind == types.NotebookCellKind.Code:
                    parts[cell.document] = text
            path = document_path(uri, NOTEBOOK_SUFFIX)
            return Snapshot(uri, notebook.version, path, notebook_bytes(cells, notebook.metadata),
                            parts, uris, cells)
        document = self.workspace.text_documents.get(_key(uri))
        if document is None or not is_python(document.uri, document.language_id):
            return None
        text = document.source
        return Snapshot(uri, document.version, document_path(uri, ".py"), buffer_bytes(text),
                        {uri: text})

    def targets(self) -> list[str]:
        """Every open document that is linted: Python documents (not a notebook's cells) and
        notebooks."""
        documents = [document.uri for key, document in self.workspace.text_documents.items()
                     if self.workspace.get_notebook_document(cell_uri=key) is None
                     and is_python(document.uri, document.language_id)]
        return documents + [notebook.uri for notebook in self.workspace.notebook_documents.values()]

    def version_of(self, uri: str) -> Optional[int]:
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is not None:
            return notebook.version
        document = self.workspace.text_documents.get(_key(uri))
        return document.version if document is not None else None

    # ------------------------------------------------------------------ linting
    def schedule(self, uri: str, delay: float = 0.0) -> None:
        """Lint ``uri`` after ``delay`` seconds, replacing a lint scheduled before."""
        self.cancel(uri)
        self.pending[uri] = asyncio.get_running_loop().create_task(self._lint_later(uri, delay))

    def cancel(self, uri: str) -> None:
        """Drop the lint scheduled for ``uri``, if any."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()

    def schedule_all(self) -> None:
        for uri in self.targets():
            self.schedule(uri)

    async def refresh_project(self) -> None:
        """A file was saved or changed on disk: read the project again, lint every document."""
        await self.in_linter(forget_project_layout)
        self.schedule_all()

    async def _lint_later(self, uri: str, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            snapshot = self.snapshot(uri)
            if snapshot is None:
                return
            linted = await self.in_linter(lint_buffer, snapshot.data, snapshot.path)
            if self.version_of(uri) != snapshot.version:
                return  # edited meanwhile: the lint scheduled by that edit publishes
            self.report(linted)
            self.publish(snapshot, linted)
        except Exception:  # a bug here, not in the engine: say so, keep serving
            self.log(types.MessageType.Error,
                     f"jitlint: internal error while linting {uri} (please report it): "
                     f"{traceback.format_exc().rstrip()}")
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]

    async def in_linter(self, function: Callable, *args):
        return await asyncio.get_running_loop().run_in_executor(self.linter, function, *args)

    def report(self, linted: Linted) -> None:
        """A crash is logged every time; config errors and notes once each."""
        if linted.internal_error:
            self.log(types.MessageType.Error,
                     f"jitlint: internal error on {linted.path}, no findings for it (please "
                     f"report it): {linted.internal_error}")
        if linted.config_error and linted.config_error not in self.reported:
            self.reported.add(linted.config_error)
            self.log(types.MessageType.Error, f"jitlint: {linted.config_error}")
            self.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Error, message=f"jitlint: {linted.config_error}"))
        for note in linted.notes:
            if note not in self.reported:
                self.reported.add(note)
                self.log(types.MessageType.Warning, f"jitlint: warning: {note}")

    def log(self, kind: types.MessageType, message: str) -> None:
        logger.log(logging.ERROR if kind == types.MessageType.Error else logging.WARNING, message)
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def publish(self, snapshot: Snapshot, linted: Linted) -> None:
        by_part: dict[str, list[Diagnostic]] = {uri: [] for uri in snapshot.parts}
        for diagnostic in linted.diagnostics:
            part = None
            if diagnostic.cell is None:
                part = snapshot.uri
            elif 1 <= diagnostic.cell <= len(snapshot.cell_uris):
                part = snapshot.cell_uris[diagnostic.cell - 1]
            if part in by_part:  # a notebook's findings are on its code cells
                by_part[part].append(diagnostic)
        if snapshot.cell_uris:  # cells no longer in the notebook lose their findings
            for gone in set(self.cells_published.get(snapshot.uri, ())) - set(by_part):
                self.clear(gone)
            self.cells_published[snapshot.uri] = list(by_part)
        for uri, diagnostics in by_part.items():
            findings = [(d, self.to_lsp(d, uri, snapshot)) for d in diagnostics]
            self.published[uri] = Published(snapshot.uri, snapshot.version, findings,
                                            linted.settings)
            part = self.workspace.text_documents.get(_key(uri))
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=uri, diagnostics=[lsp for _, lsp in findings],
                version=part.version if part is not None else None))

    def clear(self, uri: str) -> None:
        self.published.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri,
                                                                              diagnostics=[]))

    def to_lsp(self, d: Diagnostic, uri: str, snapshot: Snapshot) -> types.Diagnostic:
        related = []
        for place in d.related:
            place_uri = uri if place.cell is None else snapshot.cell_uris[place.cell - 1]
            if place_uri in snapshot.parts:
                related.append(types.DiagnosticRelatedInformation(
                    location=types.Location(uri=place_uri, range=self.span(snapshot, place_uri, place)),
                    message=place.message))
        return types.Diagnostic(
            range=self.span(snapshot, uri, d),
            message=d.message,
            severity=SEVERITIES.get(d.severity, types.DiagnosticSeverity.Warning),
            code=d.code,
            code_description=types.CodeDescription(href=rule_url(d.code)),
            source=SOURCE,
            related_information=related or None,
        )

    def span(self, snapshot: Snapshot, uri: str, span) -> types.Range:
        """A Diagnostic's or Related's span (1-based, end exclusive) in ``uri``'s text."""
        lines = split_lines(snapshot.parts[uri])
        return self.to_range(lines, span.line - 1, span.column - 1, span.end_line - 1,
                             span.end_column - 1)

    def to_range(self, lines: Sequence[str], line: int, column: int, end_line: int,
                 end_column: int) -> types.Range:
        """jitlint's 0-based code-point positions -> the client's units (UTF-16 by default)."""
        codec = self.workspace.position_codec
        return types.Range(codec.position_to_client_units(lines, ServerTextPosition(line, column)),
                           codec.position_to_client_units(lines, ServerTextPosition(end_line,
                                                                                    end_column)))

    # ------------------------------------------------------------------ code actions
    async def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        published = self.published.get(uri)
        snapshot = self.snapshot(published.target) if published is not None else None
        if snapshot is None or snapshot.version != published.version:
            return []  # edited since: its lint is on the way, and lines may have moved
        findings = [(d, lsp) for d, lsp in published.findings
                    if _overlaps(lsp.range, params.range)
                    or any(_same(lsp, other) for other in params.context.diagnostics)]
        actions: list[types.CodeAction] = []
        if not findings and not _wanted(FIX_ALL, params.context.only):
            return actions
        fix = None
        if published.settings is not None:
            fix = await self.in_linter(fix_buffer, snapshot.data, snapshot.path,
                                       published.settings, snapshot.cells)
        if fix is not None:
            edit = self.fix_edit(snapshot, fix)
            fixed_here = {(applied.code, applied.line) for applied in fix.applied}
            for d, lsp in findings:
                if (d.code, d.absolute_line or d.line) in fixed_here:
                    actions.append(types.CodeAction(
                        title=_fix_title(d.code, fix), kind=types.CodeActionKind.QuickFix,
                        diagnostics=[lsp], edit=edit, is_preferred=True))
            actions.append(types.CodeAction(title="jitlint: apply all safe fixes", kind=FIX_ALL,
                                            edit=edit))
        for d, lsp in findings:
            noqa = self.noqa_edit(uri, snapshot.parts.get(uri, ""), d)
            if noqa is not None:
                actions.append(types.CodeAction(
                    title=f"jitlint: ignore {d.code} on this line (# noqa: {d.code})",
                    kind=types.CodeActionKind.QuickFix, diagnostics=[lsp],
                    edit=types.WorkspaceEdit(changes={uri: [noqa]})))
        return [action for action in actions if _wanted(action.kind, params.context.only)]

    def fix_edit(self, snapshot: Snapshot, fix: BufferFix) -> types.WorkspaceEdit:
        changes: dict[str, list[types.TextEdit]] = {}
        for part, new in fix.texts.items():
            uri = snapshot.uri if part is None else snapshot.cell_uris[part - 1]
            old = snapshot.parts[uri]
            lines = split_lines(old)
            changes[uri] = [types.TextEdit(range=self.to_range(lines, start, 0, end, end_column),
                                           new_text=text)
                            for start, end, end_column, text in line_edits(old, new)]
        return types.WorkspaceEdit(changes=changes)

    def noqa_edit(self, uri: str, text: str, d: Diagnostic) -> Optional[types.TextEdit]:
        lines = split_lines(text)
        if not comment_fits(text, d.line):
            return None
        line = lines[d.line - 1]
        new = with_noqa(line, d.code)
        if new is None:
            return None
        return types.TextEdit(range=self.to_range(lines, d.line - 1, 0, d.line - 1, len(line)),
                              new_text=new)

    # ------------------------------------------------------------------ hover
    def hover(self, params: types.HoverParams) -> Optional[types.Hover]:
        published = self.published.get(params.text_document.uri)
        if published is None:
            return None
        here = [(d, lsp) for d, lsp in published.findings if _contains(lsp.range, params.position)]
        if not here:
            return None
        codes = list(dict.fromkeys(d.code for d, _ in here))
        text = "\n---\n\n".join(filter(None, map(rule_explanation, codes)))
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
                           range=here[0][1].range)


def _fix_title(code: str, fix: BufferFix) -> str:
    if len(fix.applied) == 1:
        description = fix.applied[0].description
        return f"jitlint: {description} ({code})" if description else f"jitlint: fix {code}"
    return f"jitlint: apply the {len(fix.applied)} safe fixes of this file ({code} among them)"


def _wanted(kind: Optional[str], only: Optional[Sequence[str]]) -> bool:
    """Code action kinds are hierarchical: ``source`` asks for ``source.fixAll.jitlint``."""
    return only is None or any(kind == k or (kind or "").startswith(f"{k}.") for k in only)


def _position_key(position: types.Position) -> tuple[int, int]:
    return position.line, position.character


def _contains(span: types.Range, position: types.Position) -> bool:
    return _position_key(span.start) <= _position_key(position) <= _position_key(span.end)


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return _position_key(a.start) <= _position_key(b.end) and _position_key(b.start) <= _position_key(a.end)


def _same(a: types.Diagnostic, b: types.Diagnostic) -> bool:
    return a.code == b.code and a.range == b.range and a.source == b.source


def _key(uri: str) -> str:
    """How pygls's workspace keys documents."""
    return unquote(uri)


def is_python(uri: str, language_id: Optional[str]) -> bool:
    """Python sources by language or name; a ``.ipynb`` opened as JSON text is not linted
    (its findings would be in cells, not at lines of the JSON)."""
    if language_id:
        return language_id == "python"
    return uri.lower().endswith(PYTHON_SUFFIXES)


def document_path(uri: str, suffix: str) -> str:
    """The file a document is (or will be) saved as: its settings, project and excludes follow
    from it.  An unsaved buffer (``untitled:``) is taken to be in the working directory."""
    path = to_fs_path(uri)
    if path is None or not os.path.isabs(path):
        name = uri.rsplit("/", 1)[-1].rsplit(":", 1)[-1] or "untitled"
        path = os.path.join(os.getcwd(), name if name.endswith(suffix) else name + suffix)
    return path


def create_server() -> JitlintServer:
    server = JitlintServer()

    @server.feature(types.INITIALIZED)
    async def initialized(ls: JitlintServer, params: types.InitializedParams) -> None:
        if _can_register_watchers(ls.client_capabilities):
            try:
                await ls.client_register_capability_async(types.RegistrationParams(registrations=[
                    types.Registration(
                        id="jitlint-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(
                            watchers=[types.FileSystemWatcher(glob_pattern=pattern)
                                      for pattern in WATCHED]))]))
            except Exception as exc:  # the client refused: saves still refresh
                logger.warning("jitlint: could not watch files: %s", exc)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: JitlintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: JitlintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, DEBOUNCE_SECONDS)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: JitlintServer, params: types.DidSaveTextDocumentParams) -> None:
        await ls.refresh_project()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: JitlintServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.cancel(params.text_document.uri)
        ls.clear(params.text_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    async def notebook_open(ls: JitlintServer, params: types.DidOpenNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    async def notebook_change(ls: JitlintServer,
                              params: types.DidChangeNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri, DEBOUNCE_SECONDS)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    async def notebook_save(ls: JitlintServer, params: types.DidSaveNotebookDocumentParams) -> None:
        await ls.refresh_project()

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    async def notebook_close(ls: JitlintServer,
                             params: types.DidCloseNotebookDocumentParams) -> None:
        uri = params.notebook_document.uri
        ls.cancel(uri)
        for cell in ls.cells_published.pop(uri, ()):
            ls.clear(cell)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched_files(ls: JitlintServer, params: types.DidChangeWatchedFilesParams) -> None:
        await ls.refresh_project()

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]))
    async def code_action(ls: JitlintServer, params: types.CodeActionParams):
        return await ls.code_actions(params)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: JitlintServer, params: types.HoverParams) -> Optional[types.Hover]:
        return ls.hover(params)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: JitlintServer, params: None) -> None:
        ls.shut_down = True
        for task in ls.pending.values():
            task.cancel()
        ls.linter.shutdown(wait=False, cancel_futures=True)

    return server


def _can_register_watchers(capabilities: types.ClientCapabilities) -> bool:
    watched = capabilities.workspace and capabilities.workspace.did_change_watched_files
    return bool(watched and watched.dynamic_registration)


def serve() -> int:
    """Serve on stdin/stdout; 0 when the client asked for a shutdown before exit (or before
    closing the connection), else 1, as the protocol says."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    reuse_parsed_statements()  # after an edit, libcst parses only the statements that changed
    server = create_server()
    server.start_io()
    return 0 if server.shut_down else 1
