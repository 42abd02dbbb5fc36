# source: https://github.com/google/flax/issues/4085
# expect: trace-time-error at line 43
# runtime: ERROR TracerBoolConversionError
# why: training is a traced argument of the jitted train_setp, and the model computes deterministic=not training, which asks Python for the truth value of a tracer: TracerBoolConversionError.

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


import jax
import jax.numpy as jnp
import flax.linen as nn
import optax

class DNN(nn.Module):
    num_hidden_units1:int
    num_hidden_units2:int
    num_outputs:int
    dropout_rate:float 
        
    @nn.compact
    def __call__(self,x,training):
        x=nn.Dense(self.num_hidden_units1)(x)
        x=nn.relu(x)
        x=nn.Dropout(rate=self.dropout_rate,deterministic=not training)(x)
        
        x=nn.Dense(self.num_hidden_units2)(x)
        x=nn.relu(x)
        x=nn.Dropout(rate=self.dropout_rate,deterministic=not training)(x)
        
        x=nn.Dense(self.num_outputs)(x)
        return x

def mse(params,X,y,training):
    def squared_error(X,y):
        y_pred=model.apply(params,X,training,rngs={'dropout':jax.random.PRNGKey(114)})
        diff=y_pred-y
        return jnp.inner(diff,diff)
    return jnp.mean(jax.vmap(squared_error)(X,y),axis=0)

@jax.jit
def train_setp(params,opt_state,X,y,training):

    loss,grads=jax.value_and_grad(mse)(params,X,y,training)
    updates,opt_state=optimizer.update(grads,opt_state)
    params=optax.apply_updates(params,updates)

    return params,opt_state,loss

model = DNN(16, 8, 1, 0.1)  # scaffolding
optimizer = optax.adam(1e-3)  # scaffolding
X = jnp.ones((8, 4)); y = jnp.zeros((8, 1))  # scaffolding
# Initialization
params=model.init(jax.random.PRNGKey(114),X,False)
opt_state = optimizer.init(params)  # scaffolding
try:  # scaffolding
    train_setp(params,opt_state,X,y,True)  # scaffolding: fit() calls it in a loop
    _report({"jit(train_setp)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
