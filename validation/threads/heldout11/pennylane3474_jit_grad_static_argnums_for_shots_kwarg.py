# source: https://github.com/PennyLaneAI/pennylane/issues/3474
# expect: bad-static-spec at line 134
# runtime: ERROR ValueError
# why: the reporter marks static_argnums=2 to keep the QNode's call-time shots static, but shots is passed as a keyword and the function being jitted (jax.grad of a QNode whose signature is the wrapped cost_fn(a, b)) has only two positional parameters, so the index points past the signature; on jax 0.10.2 jit rejects it with a ValueError (in 2022 the spec was silently ignored and the traced shots failed later inside set_shots).

import contextlib  # scaffolding
import functools  # scaffolding
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


# --- end harness ---
from jax import numpy as jnp
import jax


class qml:  # scaffolding: stand-in for the pennylane namespace
    _tape = []  # scaffolding

    class gradients:  # scaffolding
        param_shift = "param_shift"  # scaffolding

    @staticmethod  # scaffolding
    def RY(theta, wires):  # scaffolding
        qml._tape.append(("RY", theta, wires))  # scaffolding

    @staticmethod  # scaffolding
    def RX(theta, wires):  # scaffolding
        qml._tape.append(("RX", theta, wires))  # scaffolding

    @staticmethod  # scaffolding
    def CNOT(wires):  # scaffolding
        qml._tape.append(("CNOT", None, wires))  # scaffolding

    @staticmethod  # scaffolding
    def PauliY(wires):  # scaffolding
        return ("Y", wires)  # scaffolding

    @staticmethod  # scaffolding
    def expval(obs):  # scaffolding
        return obs  # scaffolding

    class _Device:  # scaffolding
        def __init__(self, name, wires, shots=None):  # scaffolding
            self.name, self.wires, self.shots = name, wires, shots  # scaffolding

    @staticmethod  # scaffolding
    def device(name, wires, shots=None):  # scaffolding
        return qml._Device(name, wires, shots)  # scaffolding

    @staticmethod  # scaffolding
    def qnode(device, diff_method="best", interface="auto"):  # scaffolding
        return lambda func: QNode(func, device, interface=interface, diff_method=diff_method)  # scaffolding


def _one_qubit(gate, wire):  # scaffolding: embed a 2x2 gate on wire 0 or 1
    eye = jnp.eye(2, dtype=jnp.complex128)  # scaffolding
    return jnp.kron(gate, eye) if wire == 0 else jnp.kron(eye, gate)  # scaffolding


def _simulate(tape, obs):  # scaffolding: analytic two-qubit statevector
    state = jnp.zeros(4, dtype=jnp.complex128).at[0].set(1.0)  # scaffolding
    for name, theta, wires in tape:  # scaffolding
        if name == "RY":  # scaffolding
            c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)  # scaffolding
            state = _one_qubit(jnp.array([[c, -s], [s, c]], dtype=jnp.complex128), wires) @ state  # scaffolding
        elif name == "RX":  # scaffolding
            c, s = jnp.cos(theta / 2), -1j * jnp.sin(theta / 2)  # scaffolding
            state = _one_qubit(jnp.array([[c, s], [s, c]], dtype=jnp.complex128), wires) @ state  # scaffolding
        else:  # scaffolding: CNOT control 0, target 1
            state = state[jnp.array([0, 1, 3, 2])]  # scaffolding
    y = jnp.array([[0, -1j], [1j, 0]], dtype=jnp.complex128)  # scaffolding
    return jnp.real(jnp.vdot(state, _one_qubit(y, obs[1]) @ state))  # scaffolding


@contextlib.contextmanager  # scaffolding: pennylane/interfaces/set_shots.py
def set_shots(device, shots):  # scaffolding
    if shots == device.shots:  # scaffolding
        yield  # scaffolding
        return  # scaffolding
    original_shots = device.shots  # scaffolding
    try:  # scaffolding
        if shots is not False and device.shots != shots:  # scaffolding
            device.shots = shots  # scaffolding
        yield  # scaffolding
    finally:  # scaffolding
        device.shots = original_shots  # scaffolding


class QNode:  # scaffolding: stand-in for qml.QNode
    def __init__(self, func, device, interface="auto", diff_method="best"):  # scaffolding
        self.func, self.device = func, device  # scaffolding
        self.interface, self.diff_method = interface, diff_method  # scaffolding
        functools.update_wrapper(self, func)  # scaffolding

    def __call__(self, *args, **kwargs):  # scaffolding
        override_shots = kwargs.pop("shots", False)  # scaffolding
        with set_shots(self.device, override_shots):  # scaffolding
            qml._tape = []  # scaffolding
            obs = self.func(*args, **kwargs)  # scaffolding
            return _simulate(qml._tape, obs)  # scaffolding


jax.config.update("jax_enable_x64", True)
dev = qml.device("default.qubit", wires=2, shots=1)
a, b = jnp.array([0.543, -0.654])

@qml.qnode(dev, diff_method=qml.gradients.param_shift, interface="jax-jit")
def cost_fn(a, b):
    qml.RY(a, wires=0)
    qml.RX(b, wires=1)
    qml.CNOT(wires=[0, 1])
    return qml.expval(qml.PauliY(1))

try:  # scaffolding
    print(jax.jit(jax.grad(cost_fn, argnums=[0, 1]), static_argnums=2)(a, b, shots=30000))
    _report({"jit(cost_fn)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
