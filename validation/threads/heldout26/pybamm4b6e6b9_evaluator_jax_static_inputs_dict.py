# source: https://github.com/pybamm-team/PyBaMM/commit/4b6e6b95c66348312762f4221d96ba51692f6d2a
# expect: unhashable-static at line 122
# runtime: ERROR ValueError
# why: after 7bb9bd0 the constants are separate arguments, but static_argnums still adds inputs and known_evals (3 + n, 4 + n); passing the inputs dict of model parameters as static raises ValueError (unhashable dict).
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



import numbers
from collections import OrderedDict

import numpy as np
import jax


# --- scaffolding: stand-ins for pybamm.to_python / id_to_python_variable and a tiny expression tree ---
def id_to_python_variable(symbol_id, constant=False):  # scaffolding
    return ("const_" if constant else "var_") + str(symbol_id)  # scaffolding


class _Symbol:  # scaffolding: the expression  c1 * y * c2 + inputs["Current function [A]"]
    id = 4  # scaffolding

    def is_constant(self):  # scaffolding
        return False  # scaffolding


class pybamm:  # scaffolding: namespace for the code generator
    @staticmethod
    def to_python(symbol, debug=False, output_jax=True):  # scaffolding
        constants = OrderedDict([(1, np.array([[1.0], [2.0]])), (2, 3.0)])  # scaffolding
        python_str = ("var_3 = const_1 * y\n"  # scaffolding
                      "var_4 = var_3 * const_2 + inputs['Current function [A]']")  # scaffolding
        return constants, python_str  # scaffolding


# --- pybamm/expression_tree/operations/evaluate.py: class EvaluatorJax (docstring and debug() cut) ---
class EvaluatorJax:
    def __init__(self, symbol):
        constants, python_str = pybamm.to_python(symbol, debug=False, output_jax=True)

        # replace numpy function calls to jax numpy calls
        python_str = python_str.replace("np.", "jax.numpy.")

        # convert all numpy constants to device vectors
        for symbol_id in constants:
            if isinstance(constants[symbol_id], np.ndarray):
                constants[symbol_id] = jax.device_put(constants[symbol_id])

        # get a list of constant arguments to input to the function
        arg_list = [
            id_to_python_variable(symbol_id, True)
            for symbol_id in constants.keys()
        ]

        # get a list of hashable arguments to make static
        # a jax device array is not hashable
        static_argnums = (
            i for i, c in enumerate(constants.values())
            if not (
                isinstance(c, jax.Array)  # scaffolding: was jax.interpreters.xla.DeviceArray, removed from jax
            )
        )

        # store constants
        self._constants = tuple(constants.values())

        # indent code
        python_str = "   " + python_str
        python_str = python_str.replace("\n", "\n   ")

        # add function def to first line
        args = 't=None, y=None, y_dot=None, inputs=None, known_evals=None'
        if arg_list:
            args = ','.join(arg_list) + ', ' + args
        python_str = (
            "def evaluate_jax({}):\n".format(args) + python_str
        )

        # calculate the final variable that will output the result of calling `evaluate`
        # on `symbol`
        result_var = id_to_python_variable(symbol.id, symbol.is_constant())
        if symbol.is_constant():
            result_value = symbol.evaluate()

        # add return line
        if symbol.is_constant() and isinstance(result_value, numbers.Number):
            python_str = python_str + "\n   return " + str(result_value)
        else:
            python_str = python_str + "\n   return " + result_var

        # store a copy of examine_jaxpr
        python_str = python_str + "\nself._evaluate_jax = evaluate_jax"

        # store the final generated code
        self._python_str = python_str

        # compile and run the generated python code,
        compiled_function = compile(python_str, result_var, "exec")
        exec(compiled_function)

        n = len(arg_list)
        static_argnums = tuple(static_argnums) + (3 + n, 4 + n)
        self._jit_evaluate = jax.jit(self._evaluate_jax,
                                     static_argnums=static_argnums)

        # store a jit version of evaluate_jax's jacobian
        jacobian_evaluate = jax.jacfwd(self._evaluate_jax, argnums=1 + n)
        self._jac_evaluate = jax.jit(jacobian_evaluate,
                                     static_argnums=static_argnums)

    def evaluate(self, t=None, y=None, y_dot=None, inputs=None, known_evals=None):
        """
        Acts as a drop-in replacement for :func:`pybamm.Symbol.evaluate`
        """
        # generated code assumes y is a column vector
        if y is not None and y.ndim == 1:
            y = y.reshape(-1, 1)

        result = self._jit_evaluate(*self._constants, t, y, y_dot, inputs, known_evals)

        # don't need known_evals, but need to reproduce Symbol.evaluate signature
        if known_evals is not None:
            return result, known_evals
        else:
            return result


evaluator = EvaluatorJax(_Symbol())  # scaffolding
y = np.array([1.0, 1.0])  # scaffolding
inputs = {"Current function [A]": 1.0}  # scaffolding: a model input parameter, as in the DFN example
try:  # scaffolding
    for t in (0.0, 1.0):  # scaffolding: two solver evaluations
        out = evaluator.evaluate(t=t, y=y, inputs=inputs)  # scaffolding
    print(np.asarray(out).ravel().tolist())  # scaffolding
    _report({"jit(evaluate_jax)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
