# source: https://github.com/PyAutoLabs/PyAutoFit/pull/1441
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: with the PR, any attribute whose value is a JAX array or tracer becomes a dynamic child, so the derived scale_radius is traced properly and the jitted gradient compiles once for three calls.
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax.tree_util import register_pytree_node  # scaffolding: autonerves.jax_wrapper re-exports this

_CLASS_FIELD_CLASSIFIERS: dict = {}
_CLASS_CONSTRUCTOR_ARGS: dict = {}


def _build_instance_pytree_funcs(cls):
    """Build flatten/unflatten functions for any instance of ``cls``.

    At flatten time we iterate the instance's own public attributes rather
    than a list captured from a single model at registration time. This is
    required because classes like ``Galaxy`` use ``**kwargs`` in ``__init__``,
    so different ``af.Model(Galaxy, ...)`` instances (e.g. a lens galaxy vs a
    source galaxy) produce instances with completely different attribute sets
    that nonetheless share the same ``cls`` — and JAX allows only one
    registration per class.

    Each attribute is classified as:

    * **Dynamic** (prior-derived): the corresponding ``Model`` attribute was
      a ``Prior``, ``AbstractPriorModel``, or ``TuplePrior``. Resolved to
      concrete numbers (or nested instances, or a Python tuple of scalars in
      the ``TuplePrior`` case) per sampled point, so it becomes a JAX child
      leaf (or tuple of leaves) and gets traced under ``jax.jit``.
    * **Constant**: everything else — a fixed ``redshift=0.5``, or a concrete
      non-prior kwarg like ``Galaxy(pixelization=<Pixelization>)``. Goes into
      ``aux_data`` so it stays as the original Python object inside a trace.
      Required for control flow that reads constants
      (``sorted(..., key=lambda g: g.redshift)``) and for ``isinstance``
      dispatch on concrete kwargs (``isinstance(obj, Pixelization)``).

    Classification is read from the shared ``_CLASS_FIELD_CLASSIFIERS`` dict,
    which is updated by every ``register_model`` call. Attributes unknown to
    the classifier (never declared on any walked model) default to constant —
    safer than tracing an unknown object — with one override: an attribute
    whose *value* is a JAX array or tracer is always a dynamic child,
    whatever the classifier says. Such values arise from attributes derived
    inside ``__init__`` from traced parameters (e.g. an ``NFWMCRLudlowSph``
    computing ``scale_radius`` from a free ``mass_at_200``); as aux data they
    survive the flatten as raw Python references and re-enter nested traces
    (a ``custom_jvp`` rule's inner jvp) as stale tracers, raising
    ``UnexpectedTracerError``. A traced value is never safe aux.
    """
    constructor_args = _CLASS_CONSTRUCTOR_ARGS.get(cls, ())
    constructor_arg_set = set(constructor_args)

    def _is_jax_value(value):
        import jax

        if isinstance(value, (jax.Array, jax.core.Tracer)):
            return True
        if isinstance(value, (tuple, list)):
            return any(_is_jax_value(v) for v in value)
        return False

    def _partition(instance):
        classifier = _CLASS_FIELD_CLASSIFIERS.get(cls, {})
        ctor_dyn: list = []
        ctor_const: list = []
        attr_dyn: list = []
        attr_const: list = []
        for name, value in vars(instance).items():
            if name.startswith("_") or name in ("cls", "id"):
                continue
            is_dynamic = classifier.get(name, False) or _is_jax_value(value)
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


class NFWMCRLudlowSph:  # scaffolding: a profile deriving scale_radius in __init__ from a free mass_at_200
    def __init__(self, mass_at_200):  # scaffolding
        self.mass_at_200 = mass_at_200  # scaffolding
        self.scale_radius = 0.1 * mass_at_200 ** (1.0 / 3.0)  # scaffolding: attribute unknown to the classifier


_CLASS_FIELD_CLASSIFIERS[NFWMCRLudlowSph] = {"mass_at_200": True}  # scaffolding: what register_model records
_CLASS_CONSTRUCTOR_ARGS[NFWMCRLudlowSph] = ("mass_at_200",)  # scaffolding
flatten, unflatten = _build_instance_pytree_funcs(NFWMCRLudlowSph)  # scaffolding: register_model's registration
register_pytree_node(NFWMCRLudlowSph, flatten, unflatten)  # scaffolding


@jax.custom_jvp  # scaffolding: a deflection with a custom_jvp rule whose inner jax.jvp re-traces the profile
def deflections(profile, r):  # scaffolding
    return profile.scale_radius * jnp.log1p(r / profile.scale_radius)  # scaffolding


@deflections.defjvp  # scaffolding
def _deflections_jvp(primals, tangents):  # scaffolding
    profile, r = primals  # scaffolding
    return jax.jvp(lambda p, rr: p.scale_radius * jnp.log1p(rr / p.scale_radius), (profile, r), tangents)  # scaffolding


def log_likelihood(mass_at_200, r):  # scaffolding: the instance is built from a traced prior value
    return deflections(NFWMCRLudlowSph(mass_at_200), r)  # scaffolding


grad_fn = jax.jit(jax.grad(log_likelihood))  # scaffolding: the cluster gradient cells take jax.grad under jit
try:  # scaffolding
    for k in range(3):  # scaffolding
        grad_fn(1.0e3 * (k + 1), 0.5)  # scaffolding
    _report({"jit(log_likelihood)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
