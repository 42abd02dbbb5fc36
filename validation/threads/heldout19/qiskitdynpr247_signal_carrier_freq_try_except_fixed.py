# source: https://github.com/qiskit-community/qiskit-dynamics/pull/247
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR wraps the carrier_freq == 0.0 check in try/except, so a traced carrier frequency just leaves the signal marked non-constant and the jitted evaluation compiles once.
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
# qiskit-community/qiskit-dynamics PR #247: Signal (qiskit_dynamics/signals/signals.py at 221d09b1) constructed inside jit, as in the PR's new test
from typing import List, Callable, Union, Optional  # signals.py
import numpy as np  # signals.py
import jax  # scaffolding
import jax.numpy as jnp  # signals.py
from jax import jit, grad  # as in the PR's test


def _unwrap(x):  # scaffolding
    return x.data if isinstance(x, Array) else x


class Array:  # scaffolding: qiskit_dynamics.array.Array stand-in (jax backend; numpy calls and operators dispatch to jax)
    def __init__(self, x, backend=None, dtype=None):
        self.data = jnp.asarray(_unwrap(x), dtype=dtype)
        self.backend = "jax"

    @staticmethod
    def default_backend():
        return "jax"

    def __mul__(self, other):
        return Array(self.data * _unwrap(other))

    __rmul__ = __mul__

    def __add__(self, other):
        return Array(self.data + _unwrap(other))

    __radd__ = __add__

    def __eq__(self, other):
        return Array(jnp.equal(self.data, _unwrap(other)))

    def __bool__(self):
        return bool(self.data)

    def __array_ufunc__(self, ufunc, method, *args, **kw):
        return Array(getattr(jnp, ufunc.__name__)(*[_unwrap(a) for a in args], **kw))

    def __array_function__(self, func, types, args, kw):
        return Array(getattr(jnp, func.__name__)(*[_unwrap(a) for a in args], **kw))


class Signal:
    r"""General signal class."""

    def __init__(
        self,
        envelope: Union[Callable, complex, float, int, Array],
        carrier_freq: Union[float, List, Array] = 0.0,
        phase: Union[float, List, Array] = 0.0,
        name: Optional[str] = None,
    ):
        """
        Initializes a signal given by an envelope and a carrier.

        Args:
            envelope: Envelope function of the signal, must be vectorized.
            carrier_freq: Frequency of the carrier. Subclasses such as SignalSums
                          represent the carriers of each signal in an array.
            phase: The phase of the carrier. Subclasses such as SignalSums
                   represent the phase of each signal in an array.
            name: Name of the signal.
        """
        self._name = name
        self._is_constant = False

        if isinstance(envelope, (complex, float, int)):
            envelope = Array(complex(envelope))

        if isinstance(envelope, Array):
            # if envelope is constant and the carrier is zero, this is a constant signal
            try:
                # try block is for catching JAX tracer errors
                if carrier_freq == 0.0:
                    self._is_constant = True
            except Exception:  # pylint: disable=broad-except
                pass

            if envelope.backend == "jax":
                self._envelope = lambda t: envelope * jnp.ones_like(Array(t).data)
            else:
                self._envelope = lambda t: envelope * np.ones_like(t)
        elif callable(envelope):
            if Array.default_backend() == "jax":
                self._envelope = lambda t: Array(envelope(t))
            else:
                self._envelope = envelope

        # set carrier and phase
        self.carrier_freq = carrier_freq
        self.phase = phase

    @property
    def name(self) -> str:
        """Return the name of the signal."""
        return self._name

    @property
    def is_constant(self) -> bool:
        """Whether or not the signal is constant."""
        return self._is_constant

    @property
    def carrier_freq(self) -> Array:
        """The carrier frequency of the signal."""
        return self._carrier_freq

    @carrier_freq.setter
    def carrier_freq(self, carrier_freq: Union[float, list, Array]):
        """Carrier frequency setter. List handling is to support subclasses storing a
        list of frequencies."""
        if type(carrier_freq) == list:
            carrier_freq = [Array(entry).data for entry in carrier_freq]
        self._carrier_freq = Array(carrier_freq)
        self._carrier_arg = 1j * 2 * np.pi * self._carrier_freq

    @property
    def phase(self) -> Array:
        """The phase of the signal."""
        return self._phase

    @phase.setter
    def phase(self, phase: Union[float, list, Array]):
        """Phase setter. List handling is to support subclasses storing a
        list of phases."""
        if type(phase) == list:
            phase = [Array(entry).data for entry in phase]
        self._phase = Array(phase)
        self._phase_arg = 1j * self._phase

    def envelope(self, t: Union[float, np.array, Array]) -> Union[complex, np.array, Array]:
        """Vectorized evaluation of the envelope at time t."""
        return self._envelope(t)

    def complex_value(self, t: Union[float, np.array, Array]) -> Union[complex, np.array, Array]:
        """Vectorized evaluation of the complex value at time t."""
        arg = self._carrier_arg * t + self._phase_arg
        return self.envelope(t) * np.exp(arg)

    def __call__(self, t: Union[float, np.array, Array]) -> Union[complex, np.array, Array]:
        """Vectorized evaluation of the signal at time(s) t."""
        return np.real(self.complex_value(t))



def eval_sig(a, v, t):  # test_jit_grad_carrier_freq_construct in the PR
    a = Array(a)
    v = Array(v)
    return Array(Signal(a, v)(t)).data


jit_eval = jit(eval_sig)
calls = 0  # scaffolding
try:  # scaffolding
    for v in (1.0, 2.0, 0.0):  # scaffolding: three carrier frequencies
        jit_eval(1.0, v, 1.0)  # as in the test: jit_eval(1.0, 1.0, 1.0)
        calls += 1  # scaffolding
    _report({"jit(eval_sig)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
