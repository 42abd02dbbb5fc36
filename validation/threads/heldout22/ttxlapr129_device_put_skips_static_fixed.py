# source: https://github.com/tenstorrent/tt-xla/pull/129
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR's _safely_put_workload_on_device leaves static argnames as Python values, so train stays a hashable bool and forward compiles once for two executions.
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
# tenstorrent/tt-xla pull request #129: the PR's device-put that skips static argnames
import inspect
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
    fn_params = list(inspect.signature(workload.executable).parameters.keys())

    args_on_device = []
    for i, arg in enumerate(workload.args):
        if fn_params[i] not in workload.static_argnames:
            try:
                args_on_device.append(jax.device_put(arg, device))
            except:
                args_on_device.append(arg)
        else:
            args_on_device.append(arg)

    kwargs_on_device = {}
    for key, value in workload.kwargs.items():
        if key not in workload.static_argnames:
            try:
                kwargs_on_device[key] = jax.device_put(value, device)
            except:
                kwargs_on_device[key] = value
        else:
            kwargs_on_device[key] = value

    return Workload(workload.executable, args_on_device, kwargs_on_device)


def forward(x, train=False):  # scaffolding: a model forward with a Python flag, as the model tests have
    return x * 2.0 if train else x


device = jax.devices("cpu")[0]  # scaffolding
compiled = _compile(forward, static_argnames=["train"])  # scaffolding: what the model tester does
workload = Workload(compiled, [jnp.ones(3)], {"train": True}, static_argnames=["train"])  # scaffolding
for _ in range(2):  # scaffolding
    _safely_put_workload_on_device(workload, device).execute()
_report({"jit(forward)"}, 2)  # scaffolding
