# source: https://github.com/tenstorrent/tt-xla/pull/129
# expect: unhashable-static at line 76
# runtime: ERROR ValueError
# why: the infra device_puts every argument, so the Python flag train becomes a 0-d jax.Array; passed to a function jitted with static_argnames=["train"], the array cannot be hashed and jit raises ValueError.
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
# tenstorrent/tt-xla pull request #129: the test infra's device-put of every argument, with the static argnames the PR adds to _compile
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

import jax
import jax.numpy as jnp  # scaffolding


@dataclass
class Workload:
    """
    Convenience dataclass storing a callable and its positional and keyword arguments.
    """

    executable: Callable
    args: Sequence[Any]
    kwargs: Optional[Mapping[str, Any]] = None
    static_argnames: Optional[Sequence[str]] = None

    def __post_init__(self):
        # If kwargs is None, initialize it to an empty dictionary.
        if self.kwargs is None:
            self.kwargs = {}
        if self.static_argnames is None:
            self.static_argnames = []

    def execute(self) -> Any:
        """Calls callable passing stored args and kwargs directly."""
        return self.executable(*self.args, **self.kwargs)


def _compile(executable: Callable, static_argnames: Sequence[str] = None) -> Callable:
    """Sets up `executable` for just-in-time compile."""
    return jax.jit(executable, static_argnames=static_argnames)


def _safely_put_workload_on_device(workload: Workload, device) -> Workload:
    args_on_device = []

    for arg in workload.args:
        try:
            arg_on_device = jax.device_put(arg, device)
        except:
            arg_on_device = arg

        args_on_device.append(arg_on_device)

    kwargs_on_device = {}

    for key, value in workload.kwargs.items():
        try:
            value_on_device = jax.device_put(value, device)
        except:
            value_on_device = value

        kwargs_on_device[key] = value_on_device

    return Workload(workload.executable, args_on_device, kwargs_on_device)


def forward(x, train=False):  # scaffolding: a model forward with a Python flag, as the model tests have
    return x * 2.0 if train else x


device = jax.devices("cpu")[0]  # scaffolding
compiled = _compile(forward, static_argnames=["train"])  # scaffolding: what the model tester does
workload = Workload(compiled, [jnp.ones(3)], {"train": True}, static_argnames=["train"])  # scaffolding
try:  # scaffolding
    for _ in range(2):  # scaffolding
        _safely_put_workload_on_device(workload, device).execute()
    _report({"jit(forward)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
