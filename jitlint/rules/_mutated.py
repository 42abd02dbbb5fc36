"""Analysis for JIT603: an object passed as a static argument, or the static ``self`` of a jitted
method, changed between two calls.

jit keys its cache on the static object and keeps the object itself as the key.  Measured on
jax 0.10.2 (CPU), five setting changes of one object between calls: one trace, every call
returns the first setting's result, whether the class hashes by identity, by a ``__hash__``
over the changed field (with or without a matching ``__eq__``), or is a dataclass with
``eq=False`` or ``unsafe_hash=True``.  So the stale trace is the rule, not the exception.

Found for an object a call builds (``cfg = Config(2.0)``, ``obj = Model()``, or a parameter
every caller passes such a call: ``train(x, Config(1.0))``; not a literal, a container or an
array) that reaches a static position, or is the receiver of a
jitted method with ``self`` static (also through methods that call it on ``self``:
``node.run(x)`` where ``run`` calls ``self._step``), and is changed between two such calls (or
in the loop that calls) outside any jitted body, by:

* an attribute or item write on it: ``cfg.scale = 3.0``, ``m.data += 1``, ``cfg.sizes[0] = 4``;
* ``setattr(cfg, "scale", 3.0)``;
* a method of its class (in this module) that writes an attribute of ``self``: ``t.set_fn(g)``;
* a function of this module that writes an attribute of the parameter it is passed to:
  ``configure(cfg, 3.0)``.

Silent for an object built again before each call (a new object: a new trace), for writes
before the first call or after the last, for attributes the jitted body does not read (nor a
method of the class it calls), and for frozen classes (a write raises).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

import libcst as cst

from jitlint.rule import FileContext
from jitlint.rules._context import class_methods, inherited_method, overriding_methods
from jitlint.rules._jitted import FunctionLike, jitted_functions, positional_params
from jitlint.rules._stale import Event, StaleAnalysis, attribute_loads, is_container, is_log_call
from jitlint.semantic import Binding, CallSite, Frame, Scope, dotted_name, has_decorator
from jitlint.staticargs import target_def
from jitlint.values import array_made_by, origin, target_leaves, value_flow
from jitlint.walk import Walker, ancestors, iter_nodes, parent_map

# Calls that register a class as a pytree (its first argument), and class decorators that do.
PYTREE_REGISTRATIONS = frozenset({
    "jax.tree_util.register_pytree_node", "jax.tree_util.register_pytree_with_keys",
    "jax.tree_util.register_dataclass",
})
PYTREE_DECORATORS = frozenset({
    "jax.tree_util.register_pytree_node_class", "jax.tree_util.register_pytree_with_keys_class",
    "jax.tree_util.register_dataclass", "flax.struct.dataclass",
})


@dataclass(eq=False)
class MutatedStatic:
    node: cst.CSTNode  # the jitted body's read of what changes (else the static argument)
    name: str  # the object, as the calls name it
    callee: str
    attribute: Optional[str]  # the attribute that changes, when known
    receiver: bool  # the object is the static ``self`` of a jitted method
    pytree_class: Optional[str]  # its class, when that is a registered pytree
    called: bool  # the body calls the changed attribute (a function held by the object)
    passed: cst.CSTNode  # the object at the first call
    mutation: cst.CSTNode  # the change between two calls
    path: Optional[str] = None  # ``self.ac.q_state`` when the change writes below the attribute


@dataclass(eq=False)
class _Passing:
    """One call that gives the object to a jitted function at a static position."""

    name: cst.Name
    site_frame: Frame
    order: int
    callee: str
    function: Optional[FunctionLike]  # the jitted def / lambda, when this module shows it
    param: Optional[str]  # its parameter that receives the object
    receiver: bool
    shown: cst.CSTNode


def mutated_static_args(ctx: FileContext) -> list[MutatedStatic]:
    return ctx.shared("mutated-static-args", _analyse)


def _analyse(ctx: FileContext) -> list[MutatedStatic]:
    groups: dict[tuple[str, tuple[int, ...]], list[_Passing]] = {}
    for passing in _passings(ctx):
        bindings = ctx.model.lookup(passing.name.value, passing.site_frame.scope)
        if not bindings or not (all(_built_object(ctx, b) for b in bindings) or _receiver_class(ctx, bindings)):
            continue  # an object a call builds (or a method's receiver): not a literal, container or array
        groups.setdefault((passing.callee, tuple(id(b) for b in bindings)), []).append(passing)
    if not groups:
        return []
    jitted = set(jitted_functions(ctx))
    analysis = StaleAnalysis(ctx.model, jitted)
    found = []
    for passings in groups.values():
        first = min(passings, key=lambda p: p.order)
        bindings = ctx.model.lookup(first.name.value, first.site_frame.scope)
        calls = [Event(p.site_frame, p.order) for p in passings]
        cls = _class_of(ctx, bindings[0]) or _receiver_class(ctx, bindings)
        read = _attributes_read(ctx, first, cls)
        stale = []  # (attribute, write, the path below it that changes) of each change between calls
        for attribute, write in _changes(ctx, first.name.value, bindings, cls):
            if any(write.frame.is_inside(j) for j in jitted) or _rebuilt_in_loop(bindings, write):
                continue
            if attribute is not None and read is not None and attribute not in read:
                continue  # the trace never reads it (a counter, a log): nothing goes stale
            if any(analysis._between_calls(w, calls, ()) for w in analysis._lift(write, ())):
                stale.append((attribute, write, _changed_path(write.node, first.name.value, attribute)))
        if not stale:
            continue
        # a change whose path the body reads (``self.ac.pi_state``) before one it only reaches
        # through the attribute (``self.ac.q_state`` of a body reading ``self.ac.q1``)
        attribute, write, path = next((each for each in stale if each[2] is not None
                                       and _path_read(first, each[2]) is not None), stale[0])
        node = _stale_read(ctx, first, cls, attribute, path)
        found.append(MutatedStatic(
            node, first.name.value, first.callee, attribute, first.receiver,
            cls.name.value if cls is not None and is_pytree_class(ctx, cls) else None,
            _called(first.function, node), first.shown, write.node or first.shown, path))
    return found


def _passings(ctx: FileContext) -> Iterator[_Passing]:
    from jitlint.rules._static import specs, static_receivers, static_uses  # read-only use

    functions = {id(spec): target_def(app, ctx.model) for app, spec in specs(ctx)}
    order = ctx.model.order
    for use in static_uses(ctx):
        if use.spec.filtering or not isinstance(use.value, cst.Name):
            continue
        yield _Passing(use.value, use.site.frame, order(use.site.node), use.callee,
                       functions.get(id(use.spec)), use.param, False, use.arg)
    for use in static_receivers(ctx):
        if not isinstance(use.receiver, cst.Name):
            continue
        # (``step = jax.jit(_step, static_argnums=0)`` in the class body: the def is ``_step``)
        method = class_methods(use.cls).get(use.method) or class_methods(use.cls).get(use.spec.name)
        params = positional_params(method) if method is not None else []
        param = params[0].name.value if params else None
        if use.creation is not None:
            yield _Passing(use.receiver, use.site.frame, order(use.site.node), use.spec.name,
                           method, param, True, use.receiver)
            continue
        caller = use.site.frame.enclosing_function()
        if use.receiver.value != "self" or caller is None:
            continue
        # ``self`` itself in the calling method: ``self.q = ...`` between two calls there
        yield _Passing(use.receiver, use.site.frame, order(use.site.node), use.spec.name, method, param, True,
                       use.receiver)
        for receiver, site in _outer_receivers(ctx, use.cls, caller):
            yield _Passing(receiver, site.frame, order(site.node), use.spec.name, method, param, True, receiver)


def _outer_receivers(ctx: FileContext, cls: cst.ClassDef, method: cst.FunctionDef, depth: int = 0
                     ) -> Iterator[tuple[cst.Name, CallSite]]:
    """The calls of ``method`` (of ``cls``, or inherited from a base) on instances this module
    builds (``node.run(x)``, or ``op(x)`` for ``__call__``), also through other methods that
    call it on ``self``: each runs what ``method`` runs."""
    if depth > 2 or inherited_method(ctx.model, cls, method.name.value) is not method:
        return
    flow = value_flow(ctx)
    for site in ctx.model.calls:
        func = site.node.func
        if isinstance(func, cst.Attribute) and func.attr.value == method.name.value:
            receiver = func.value
        elif isinstance(func, cst.Name) and method.name.value == "__call__":
            receiver = func  # ``collision(f, feq)`` runs ``__call__``
        else:
            continue
        if not isinstance(receiver, cst.Name):
            continue
        if receiver.value == "self":
            caller = site.frame.enclosing_function()
            if caller is not None and caller is not method:
                yield receiver, site  # ``self.update_q(...)`` in ``train``: that method's receiver
                yield from _outer_receivers(ctx, cls, caller, depth + 1)
            continue
        made = origin(flow, receiver, site.frame.scope, site.frame)
        if made is not None and isinstance(made[0], cst.Call) and isinstance(made[0].func, cst.Name):
            binding = flow.single(made[0].func, made[1])
            if binding is not None and binding.kind == "class" and isinstance(binding.node, cst.ClassDef) \
                    and inherited_method(ctx.model, binding.node, method.name.value) is method:
                yield receiver, site  # an instance of ``cls``, or of a subclass that inherits ``method``


def _built_object(ctx: FileContext, binding: Binding) -> bool:
    return _creation(ctx, binding) is not None


def _creation(ctx: FileContext, binding: Binding) -> Optional[tuple[cst.Call, Scope]]:
    """The call that builds the object ``binding`` holds (``cfg = Config(2.0)``), with its
    scope: for a parameter of a plain function (``def train(x, config)``), the argument every
    call of the function (``train(x, Config(1.0))``, at least one) passes it, when each builds
    an object with the same callee.  None for a literal, a container, an array, or unknown."""
    if binding.kind == "assign":
        if isinstance(binding.value, cst.Call) and not is_container(binding) \
                and array_made_by(ctx.model, binding.value, binding.scope) is None:
            return binding.value, binding.scope
        return None
    function = binding.scope.node
    if binding.kind != "param" or binding.scope.kind != "function" or not isinstance(function, cst.FunctionDef) \
            or function.decorators or len(binding.scope.bindings.get(binding.name, ())) != 1:
        return None
    params = positional_params(function)
    index = next((i for i, p in enumerate(params) if p.name.value == binding.name), None)
    outer = ctx.model.functions.get(function)
    own = next((b for b in outer.scope.bindings.get(function.name.value, ()) if b.node is function), None) \
        if outer is not None else None
    if index is None or own is None:
        return None
    built: list[tuple[cst.Call, Scope]] = []
    for site in ctx.model.calls_to(own):
        args = site.node.args
        if any(a.star for a in args):
            return None
        value = next((a.value for a in args if a.keyword is not None and a.keyword.value == binding.name), None)
        positional = [a.value for a in args if a.keyword is None]
        if value is None and index < len(positional):
            value = positional[index]
        if isinstance(value, cst.Name):
            passed = ctx.model.bindings_at(value, site.frame.scope)
            found = _creation(ctx, passed[0]) if len(passed) == 1 and passed[0].kind == "assign" else None
        elif isinstance(value, cst.Call) and array_made_by(ctx.model, value, site.frame.scope) is None \
                and not (isinstance(value.func, cst.Name) and value.func.value in ("list", "dict", "set")):
            found = value, site.frame.scope
        else:
            found = None
        if found is None:
            return None
        built.append(found)
    if not built or len({cst.Module([]).code_for_node(call.func) for call, _ in built}) != 1:
        return None
    return built[0]


def _receiver_class(ctx: FileContext, bindings: list[Binding]) -> Optional[cst.ClassDef]:
    """The class whose method has ``bindings`` (one) as its receiver, ``self``."""
    if len(bindings) != 1 or bindings[0].kind != "param" or not isinstance(bindings[0].scope.node, cst.FunctionDef):
        return None
    method = bindings[0].scope.node
    params = positional_params(method)
    owner = ctx.model.functions[method].scope.node if method in ctx.model.functions else None
    if not params or params[0] is not bindings[0].node or not isinstance(owner, cst.ClassDef) \
            or any(has_decorator(method, name) for name in ("staticmethod", "classmethod")):
        return None
    return owner


def _class_of(ctx: FileContext, binding: Binding) -> Optional[cst.ClassDef]:
    """The class of this module whose call built the object."""
    creation = _creation(ctx, binding)
    func = creation[0].func if creation is not None else None
    if not isinstance(func, cst.Name):
        return None
    found = ctx.model.lookup(func.value, creation[1])
    if len(found) == 1 and found[0].kind == "class" and isinstance(found[0].node, cst.ClassDef):
        return found[0].node
    return None


def _changes(ctx: FileContext, name: str, bindings: list[Binding],
             cls: Optional[cst.ClassDef]) -> Iterator[tuple[Optional[str], Event]]:
    """(the attribute that changes or None, the change) for every change of the object."""
    model = ctx.model

    def same(scope: Scope) -> bool:
        found = model.lookup(name, scope)
        return len(found) == len(bindings) and all(a is b for a, b in zip(found, bindings))

    aliases = _aliases(ctx, name, bindings)
    setters = _property_setters(cls) if cls is not None else {}
    for written, frame, node in model.item_writes:
        if (written == name and same(frame.scope)) or \
                (written in aliases and model.lookup(written, frame.scope) == [aliases[written]]):
            for part in _target_parts(_write_target(node), written):
                attribute = _first_attribute(part, written)
                if attribute in setters:  # ``agent.learning_states = ...`` runs the property's setter
                    changed = _setter_writes(setters[attribute])
                    if changed is None:
                        continue  # it changes the objects it holds: which reads go stale is not read here
                    for each in changed:
                        yield each, Event(frame, model.order(node), node)
                    continue
                yield attribute, Event(frame, model.order(node), node)
    for site in model.calls:
        func, args, scope = site.node.func, site.node.args, site.frame.scope
        event = Event(site.frame, model.order(site.node), site.node)
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name \
                and cls is not None and same(scope):
            # the method the object runs: its class's own, or one it inherits (``agent.update()``)
            method = inherited_method(model, cls, func.attr.value)
            if method is None:
                continue
            if method.decorators:
                continue  # a jitted method writes only while it is traced (JIT602's); others unknown
            params = positional_params(method)
            for attribute in _attributes_written(method, params[0].name.value) if params else []:
                yield attribute, event
            continue
        if not isinstance(func, cst.Name):
            continue
        passed = [i for i, a in enumerate(args) if a.keyword is None and not a.star
                  and isinstance(a.value, cst.Name) and a.value.value == name]
        if not passed or not same(scope):
            continue
        if func.value == "setattr" and not model.lookup("setattr", scope) and passed == [0]:
            label = args[1].value if len(args) > 1 else None
            yield (label.evaluated_value if isinstance(label, cst.SimpleString) else None), event
            continue
        target = model.lookup(func.value, scope)
        if len(target) == 1 and target[0].kind == "def" and isinstance(target[0].node, cst.FunctionDef):
            params = positional_params(target[0].node)
            for index in passed:
                if index < len(params):
                    written = _attributes_written(target[0].node, params[index].name.value)
                    if written:
                        yield written[0], event
                        break


def _aliases(ctx: FileContext, name: str, bindings: list[Binding]) -> dict[str, Binding]:
    """Other names bound once to the same object (``current = config``): a write through one
    changes the object too."""
    model = ctx.model
    found: dict[str, Binding] = {}
    scopes = {id(s): s for s in (model.module_scope, *model.scope_of.values())}.values()
    for scope in scopes:
        for alias, bound in scope.bindings.items():
            if alias == name or len(bound) != 1 or bound[0].kind != "assign":
                continue
            value = bound[0].value
            if isinstance(value, cst.Name) and value.value == name \
                    and model.lookup(name, scope) == bindings:
                found[alias] = bound[0]
    return found


def _write_target(node: cst.CSTNode) -> Optional[cst.BaseExpression]:
    if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)):
        return node.target
    return None


def _target_parts(target: Optional[cst.BaseExpression], name: str) -> list[Optional[cst.BaseExpression]]:
    """The parts of an assignment target that write into ``name``: the target, or the elements
    of a tuple target (``agent.states, report = ...``)."""
    if isinstance(target, (cst.Tuple, cst.List)):
        parts = [e.value.value if isinstance(e.value, cst.StarredElement) else e.value for e in target.elements]
        return [part for each in parts for part in _target_parts(each, name)]
    root = target
    while isinstance(root, (cst.Attribute, cst.Subscript)):
        root = root.value
    return [target] if isinstance(root, cst.Name) and root.value == name else []


def _property_setters(cls: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    """``@name.setter`` defs of the class body, by property name."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return {statement.name.value: statement for statement in body if isinstance(statement, cst.FunctionDef)
            and any(isinstance(d.decorator, cst.Attribute) and d.decorator.attr.value == "setter"
                    for d in statement.decorators)}


def _setter_writes(setter: cst.FunctionDef) -> Optional[list[str]]:
    """The attributes of ``self`` a property setter assigns (``self.params = state[0]``); None
    when it changes an object it holds instead (``self.model.state = ...``)."""
    params = positional_params(setter)
    if not params:
        return None
    receiver = params[0].name.value
    nested = False

    class _Nested(Walker):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            nonlocal nested
            for part in _target_parts(node.target, receiver):
                nested = nested or (isinstance(part, cst.Attribute) and isinstance(part.value, (cst.Attribute, cst.Subscript)))

    _Nested().walk(setter)
    return None if nested else _attributes_written(setter, receiver)


def _first_attribute(target: Optional[cst.BaseExpression], name: str) -> Optional[str]:
    """``cfg.scale`` / ``cfg.sizes[0]`` -> "scale"; ``cfg[0]`` -> None."""
    attribute = None
    while isinstance(target, (cst.Attribute, cst.Subscript)):
        if isinstance(target, cst.Attribute):
            attribute = target.attr.value
        target = target.value
    return attribute if isinstance(target, cst.Name) and target.value == name else None


def _attributes_written(function: cst.FunctionDef, param: str) -> list[str]:
    """The attributes of parameter ``param`` the function's body assigns (``p.x = ...``,
    ``p.x += ...``, ``p.x[k] = ...``, ``setattr(p, "x", ...)``)."""
    written: list[str] = []

    def note(target: cst.BaseExpression) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):  # ``self._params, self._opt_state = ...``
            for element in target.elements:
                note(element.value.value if isinstance(element.value, cst.StarredElement) else element.value)
            return
        attribute = _first_attribute(target, param)
        if attribute is not None and attribute not in written:
            written.append(attribute)

    class _Writes(Walker):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            note(node.target)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            note(node.target)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if node.value is not None:
                note(node.target)

        def visit_Call(self, node: cst.Call) -> None:
            args = node.args
            if isinstance(node.func, cst.Name) and node.func.value == "setattr" and len(args) >= 2 \
                    and isinstance(args[0].value, cst.Name) and args[0].value.value == param \
                    and isinstance(args[1].value, cst.SimpleString):
                label = args[1].value.evaluated_value
                if isinstance(label, str) and label not in written:
                    written.append(label)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function  # a nested def runs later, or never

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

    _Writes().walk(function)
    return written


def _attributes_read(ctx: FileContext, passing: _Passing, cls: Optional[cst.ClassDef]) -> Optional[set[str]]:
    """The attributes of the static object the jitted body reads, directly or in a method of
    its class it calls (``self.helper()``); None when the body is not in this module.  A read
    that only feeds a log call (``logging.debug(f"{self.epoch}")``), or an argument of a method
    of the class whose parameter that method (and every override in the module) ignores
    (``self.calculate_update(grads, self.epoch)``), changes nothing the trace computes."""
    if passing.function is None or passing.param is None:
        return None
    methods = class_methods(cls) if cls is not None else {}
    read: set[str] = set()
    pending: list[tuple[cst.CSTNode, str]] = [(passing.function.body, passing.param)]
    seen: set[str] = set()
    while pending:
        body, receiver = pending.pop()
        parents = parent_map(body)
        for load in attribute_loads(body, receiver):
            name = load.attr.value
            if _ignored_read(ctx, load, parents, receiver, cls):
                continue
            read.add(name)
            if name in methods and name not in seen:
                seen.add(name)
                params = positional_params(methods[name])
                if params:
                    pending.append((methods[name].body, params[0].name.value))
    return read


def _ignored_read(ctx: FileContext, load: cst.Attribute, parents: dict[int, cst.CSTNode], receiver: str,
                  cls: Optional[cst.ClassDef]) -> bool:
    """``load`` is an argument of a log call, or of ``receiver.m(...)`` whose parameter ``m``
    (and each override of ``m`` in the module's subclasses) never reads."""
    scope = ctx.model.scope_of.get(_enclosing(parents, load)) or ctx.model.module_scope
    if any(isinstance(p, cst.Call) and is_log_call(p, scope, ctx.model) for p in ancestors(parents, load)):
        return True
    arg = parents.get(id(load))
    call = parents.get(id(arg)) if isinstance(arg, cst.Arg) else None
    if not isinstance(call, cst.Call) or arg.star or cls is None:
        return False
    func = call.func
    called = inherited_method(ctx.model, cls, func.attr.value) if isinstance(func, cst.Attribute) \
        and isinstance(func.value, cst.Name) and func.value.value == receiver else None
    if called is None:
        return False
    for method in (called, *overriding_methods(ctx.model, cls, func.attr.value)):
        params = positional_params(method)[1:]
        if arg.keyword is not None:
            param = arg.keyword.value
        else:
            index = [a for a in call.args if a.keyword is None].index(arg)
            if index >= len(params):
                return False
            param = params[index].name.value
        if any(isinstance(n, cst.Name) and n.value == param for n in iter_nodes(method.body)):
            return False
    return True


def _enclosing(parents: dict[int, cst.CSTNode], node: cst.CSTNode) -> Optional[cst.CSTNode]:
    return next((p for p in ancestors(parents, node) if isinstance(p, (cst.FunctionDef, cst.Lambda))), None)


def _rebuilt_in_loop(bindings: list[Binding], write: Event) -> bool:
    """The object is built again in the loop that changes it: a new object, a new trace."""
    loops = write.frame.loops_in_scope()
    return any(b.frame is not None and any(b.frame.is_inside(loop) for loop in loops) for b in bindings)


def _stale_read(ctx: FileContext, passing: _Passing, cls: Optional[cst.ClassDef], attribute: Optional[str],
                path: Optional[str] = None) -> cst.CSTNode:
    """The jitted body's first read of the changed attribute (of the changed ``path`` below it
    when known; of any attribute when the attribute is not known) that reaches what it
    computes (not a log's): where the old value is baked in.  The static argument when the
    body is elsewhere."""
    if passing.function is None or passing.param is None:
        return passing.shown
    deep = _path_read(passing, path) if path is not None else None
    if deep is not None:
        return deep
    parents = parent_map(passing.function.body)
    reads = [r for r in attribute_loads(passing.function.body, passing.param)
             if not _ignored_read(ctx, r, parents, passing.param, cls)]
    chosen = [r for r in reads if r.attr.value == attribute] or reads
    return chosen[0] if chosen else passing.shown


def _path_read(passing: _Passing, path: str) -> Optional[cst.Attribute]:
    """The jitted body's first read of the changed ``path`` (``sac.ac.q_state`` read as
    ``self.ac.q_state``)."""
    if passing.function is None or passing.param is None:
        return None
    below = f"{passing.param}.{path.split('.', 1)[1]}"
    return next((n for n in iter_nodes(passing.function.body)
                 if isinstance(n, cst.Attribute) and dotted_name(n) == below), None)


def _changed_path(write: Optional[cst.CSTNode], name: str, attribute: Optional[str]) -> Optional[str]:
    """``self.ac.q_state`` when the change writes below the first attribute (``self.ac.q_state,
    loss = ...``): the path that really changes, for the message, the fix and the read."""
    target = write.target if isinstance(write, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) else None
    for leaf in target_leaves(target):
        path = dotted_name(leaf) if isinstance(leaf, cst.Attribute) else None
        if attribute and path and path.startswith(f"{name}.{attribute}.") and path.count(".") > 1:
            return path
    return None


def _called(function: Optional[FunctionLike], read: cst.CSTNode) -> bool:
    """``self.fn(x)``: the read is the function of a call in the jitted body."""
    if function is None or not isinstance(read, cst.Attribute):
        return False
    found = False

    class _Calls(Walker):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            found = found or node.func is read

    _Calls().walk(function)
    return found


def is_pytree_class(ctx: FileContext, cls: cst.ClassDef) -> bool:
    """Registered with ``register_pytree_node(Cls, ...)`` (or a like call) in this module, or
    decorated with a registering decorator: instances can be passed as traced arguments."""
    model = ctx.model
    scope = model.module_scope
    for decorator in cls.decorators:
        expr = decorator.decorator
        if model.qualified_name(expr.func if isinstance(expr, cst.Call) else expr, scope) in PYTREE_DECORATORS:
            return True
    for site in model.calls:
        args = site.node.args
        if args and isinstance(args[0].value, cst.Name) and args[0].value.value == cls.name.value \
                and model.qualified_name(site.node.func, site.frame.scope) in PYTREE_REGISTRATIONS:
            return True
    return False
