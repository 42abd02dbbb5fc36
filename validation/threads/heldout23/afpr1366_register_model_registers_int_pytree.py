# source: https://github.com/PyAutoLabs/PyAutoFit/pull/1366
# expect: trace-time-error at line 99
# runtime: ERROR TypeError
# why: register_model registers every Model.cls as a pytree node, including int from the af.Model(int) sub-models, so jitting a likelihood over a shapelet instance flattens its int n with vars(2) and raises TypeError.
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


import inspect

import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax.tree_util import register_pytree_node  # autoconf.jax_wrapper re-exports this

_ENABLED = False
_REGISTERED_INSTANCE_CLASSES: set = set()
_CLASS_FIELD_CLASSIFIERS: dict = {}
_CLASS_CONSTRUCTOR_ARGS: dict = {}


class Prior:  # scaffolding: autofit.mapper.prior.abstract.Prior
    pass  # scaffolding


class TuplePrior:  # scaffolding
    pass  # scaffolding


class AbstractPriorModel:  # scaffolding
    pass  # scaffolding


class Model(AbstractPriorModel):  # scaffolding: af.Model, only what register_model reads
    def __init__(self, cls, **kwargs):  # scaffolding
        self.cls = cls  # scaffolding
        self._kwargs = kwargs  # scaffolding

    def items(self):  # scaffolding
        return self._kwargs.items()  # scaffolding

    @property
    def constructor_argument_names(self):  # scaffolding
        try:  # scaffolding
            return list(inspect.signature(self.cls).parameters)  # scaffolding
        except (TypeError, ValueError):  # scaffolding: builtins such as int
            return []  # scaffolding

    @property
    def direct_prior_model_tuples(self):  # scaffolding
        return [(k, v) for k, v in self._kwargs.items() if isinstance(v, AbstractPriorModel)]  # scaffolding


class Collection(AbstractPriorModel):  # scaffolding
    pass  # scaffolding


def enable_pytrees() -> bool:  # scaffolding: the real one also registers autofit's own classes
    return True  # scaffolding


def register_model(model) -> bool:
    """Register every concrete ``model.cls`` in ``model`` as a JAX pytree node (docstring shortened)."""
    if not enable_pytrees():
        return False

    # (autofit imports of Prior, TuplePrior, Model, Collection, AbstractPriorModel: scaffolding stand-ins above)

    def _walk(node):
        if isinstance(node, Model):
            cls = node.cls
            classifier = _CLASS_FIELD_CLASSIFIERS.setdefault(cls, {})
            for name, value in node.items():
                is_dynamic = isinstance(value, (Prior, AbstractPriorModel, TuplePrior))
                # setdefault: earliest classification wins. Different models
                # sharing the same cls (e.g. lens vs source Galaxy) may
                # declare different attribute sets; we accumulate them all.
                classifier.setdefault(name, is_dynamic)
            _CLASS_CONSTRUCTOR_ARGS.setdefault(
                cls, tuple(node.constructor_argument_names)
            )
            if cls not in _REGISTERED_INSTANCE_CLASSES:
                flatten, unflatten = _build_instance_pytree_funcs(cls)
                try:
                    register_pytree_node(cls, flatten, unflatten)
                except ValueError:
                    # Already registered elsewhere — keep going.
                    pass
                _REGISTERED_INSTANCE_CLASSES.add(cls)
            for _, sub in node.direct_prior_model_tuples:
                _walk(sub)
        elif isinstance(node, Collection):
            for _, sub in node.direct_prior_model_tuples:
                _walk(sub)

    _walk(model)
    return True


def _build_instance_pytree_funcs(cls):
    """Build flatten/unflatten functions for any instance of ``cls`` (docstring shortened)."""
    constructor_args = _CLASS_CONSTRUCTOR_ARGS.get(cls, ())
    constructor_arg_set = set(constructor_args)

    def _partition(instance):
        classifier = _CLASS_FIELD_CLASSIFIERS.get(cls, {})
        ctor_dyn: list = []
        ctor_const: list = []
        attr_dyn: list = []
        attr_const: list = []
        for name, value in vars(instance).items():
            if name.startswith("_") or name in ("cls", "id"):
                continue
            is_dynamic = classifier.get(name, False)
            in_ctor = name in constructor_arg_set
            if in_ctor and is_dynamic:
                ctor_dyn.append((name, value))
            elif in_ctor:
                ctor_const.append((name, value))
            elif is_dynamic:
                attr_dyn.append((name, value))
            else:
                attr_const.append((name, value))
        return ctor_dyn, ctor_const, attr_dyn, attr_const

    def flatten(instance):
        ctor_dyn, ctor_const, attr_dyn, attr_const = _partition(instance)
        children = (
            [v for _, v in ctor_dyn],
            [v for _, v in attr_dyn],
        )
        aux = (
            tuple(n for n, _ in ctor_dyn),
            tuple(n for n, _ in ctor_const),
            tuple(v for _, v in ctor_const),
            tuple(n for n, _ in attr_dyn),
            tuple(n for n, _ in attr_const),
            tuple(v for _, v in attr_const),
        )
        return children, aux

    def unflatten(aux, children):
        (
            dyn_names,
            const_names,
            const_vals,
            attr_dyn_names,
            attr_const_names,
            attr_const_vals,
        ) = aux
        dyn_vals, attr_dyn_vals = children
        kwargs = dict(zip(dyn_names, dyn_vals))
        kwargs.update(zip(const_names, const_vals))
        ordered = [kwargs[name] for name in constructor_args if name in kwargs]
        instance = cls(*ordered)
        for name, value in zip(attr_dyn_names, attr_dyn_vals):
            setattr(instance, name, value)
        for name, value in zip(attr_const_names, attr_const_vals):
            setattr(instance, name, value)
        return instance

    return flatten, unflatten


class ShapeletPolar:  # scaffolding: a shapelet light profile with integer n/m constructor args
    def __init__(self, n: int = 2, m: int = 0, beta: float = 1.0):  # scaffolding
        self.n, self.m, self.beta = n, m, beta  # scaffolding


# autofit auto-creates af.Model(int) sub-models for int-typed constructor arguments (the commit message)
model = Model(ShapeletPolar, n=Model(int), m=Model(int), beta=Prior())  # scaffolding
register_model(model)  # scaffolding


@jax.jit  # scaffolding: the jitted likelihood receives the model instance as a pytree
def likelihood(instance):  # scaffolding
    return instance.beta ** 2 + instance.n  # scaffolding


try:  # scaffolding
    for beta in (0.5, 1.0, 1.5):  # scaffolding
        likelihood(ShapeletPolar(n=2, m=0, beta=jnp.asarray(beta)))  # scaffolding
    _report({"jit(likelihood)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
