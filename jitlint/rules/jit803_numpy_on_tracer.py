from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._traced import TRACING_CALL_NAMES, TRACING_METHODS, TRACING_TRANSFORM_NAMES, tracer_uses


class NumpyOnTracer(Rule):
    """
    ## What it does
    Flags numpy (not `jax.numpy`) functions that convert their argument to a numpy array
    (`np.asarray`, `np.array`, ufuncs such as `np.exp`, `np.where`, `np.concatenate`,
    `np.linalg.*`, SciPy's functions ...) applied to a traced value inside a jitted function (or to a list or
    tuple holding one: `np.array([a, b])` converts each element), and a NumPy array
    (a name bound to `np.linspace(...)`, `np.array(...)` ...) indexed with a traced value
    (`TABLE[step]`; also `jnp.reshape(TABLE, ...)`, which hands a NumPy array back as NumPy:
    `jaxfacts.NUMPY_KEEPING_JNP_FUNCTIONS`, jax#3391; also a parameter of a factory around the
    jitted function that every call of the factory passes a NumPy array, or an element of a
    tuple of them, `for elem in data`: SGMCMCJax's gradient estimator), and methods of library objects that hand their arguments to NumPy
    (`jaxfacts.NUMPY_CONVERTING_METHODS`: `run` of jaxopt's SciPy wrappers such as
    `ScipyMinimize`) called on traced values, and a traced value stored into a NumPy array
    (`dt[i] = thi - tlo` after `dt = np.zeros(n)`: NumPy raises ValueError, setting an array
    element with a sequence; once per array, at the first store: diffstar PR 1), and `xp.f(...)`
    on a traced value where the array module `xp` is a parameter that the call leading there
    leaves at its NumPy default (`xp=np`) or passes NumPy: reported at that call, where `xp=jnp`
    goes (PyAutoGalaxy PR 263: `fixtures/trace_errors/numpy_namespace_left_out_under_jit.py`).
    The values of a traced dict unpacked into the call count (`np.meshgrid(*samples)` of
    `samples = samples_dict.values()`: drpangloss b28bd29).
    A NumPy branch behind `isinstance(x, np.ndarray)` (or `x[0]`, or a
    tuple of NumPy types) is silent: under jit the value is a tracer, so that branch never runs.
    Traced code is all the code JIT801 lists (`jitlint rule JIT801`): jitted functions, and the
    functions that vmap, the lax loops, `model.apply`, equinox and nnx methods, transforms
    called in traced code and the libraries of `jaxfacts.TRACING_CALLS` trace.
    `jax.grad`'s differentiated arguments count too, with or without jit. A def handed to a
    host callback (`jax.pure_callback`, `io_callback`, `jax.debug.callback`:
    `jaxfacts.HOST_CALLBACKS`) is host code, given concrete arrays; only a tracer of the
    enclosing trace that it closes over is flagged (pounce#740: the callback raises, surfacing
    as `JaxRuntimeError` at the jitted call; `fixtures/trace_errors/host_callback_closes_over_tracer.py`).
    A module that sets `SCIPY_ARRAY_API` (`os.environ.setdefault("SCIPY_ARRAY_API", "1")`, before
    importing SciPy) switches SciPy to dispatch on JAX arrays: the SciPy functions its capability
    table marks as running on JAX under jit (`jaxfacts.SCIPY_JAX_JIT_FUNCTIONS`, generated from
    SciPy 1.17's table: `scipy.stats.tmean`, `Rotation.from_quat`) are silent there; the others
    still fail while tracing, each in its own way (`scipy.stats.rankdata`: a boolean mask).

    ## Why is this bad?
    numpy needs the data, and a tracer has none. Measured on jax 0.10.2 / numpy 2.4 (CPU):
    `np.exp(x)`, `np.asarray(x)`, `np.where(x > 0, x, x)`, `np.linalg.norm(x)` raise
    `TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on
    traced array with shape float32[3]`; `np.linspace(0, 1, 10)[step]` raises the same
    (`fixtures/trace_misuse/numpy_table_indexed_by_tracer.py`). (`np.sum`, `np.mean`, `np.reshape` ... call the
    array's own method and work; they are not flagged.)

    ## Fix safety
    `jax.numpy` mirrors the numpy API; replacing `np.f` by `jnp.f` is safe except for the few
    functions whose output shape depends on the data (`np.unique`, `np.nonzero`), which need a
    `size=` argument under jit. For a table, `jnp.asarray(TABLE)` once, outside jit, and index
    that: the same values, now a constant jit can index with a tracer. For a jaxopt SciPy
    wrapper, the jaxopt solver that runs in JAX (`LBFGS`, `LBFGSB`, `LevenbergMarquardt`) is the
    replacement under jit; it may converge to slightly different values than SciPy's.
    """

    code = "JIT803"
    name = "numpy-on-tracer"
    summary = "numpy function applied to a traced value raises TracerArrayConversionError"
    prefilter_names = TRACING_CALL_NAMES  # code that lax.scan and friends trace outside jit
    prefilter_methods = TRACING_METHODS  # self.param(name, init_fn): flax traces init_fn in apply
    prefilter_transforms = TRACING_TRANSFORM_NAMES  # jax.vmap(f) where f does a Python-value operation
    severity = "error"

    INVALID = [
        """
        import jax
        import numpy as np

        @jax.jit
        def softplus(x):
            return np.log1p(np.exp(x))
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp
        import numpy as np

        TABLE = np.linspace(0.0, 1.0, 5)

        @jax.jit
        def softplus(x):
            return jnp.log1p(jnp.exp(x)) + np.float32(TABLE[1])
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in tracer_uses(ctx):
            if use.kind == "numpy":
                yield Violation(use.node, use.message, related=use.related)
