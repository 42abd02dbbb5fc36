# source: https://github.com/ASEM000/Physics-informed-neural-network-in-JAX/blob/c45d98839a7cc0d6e48bea270c2d2fb3da6ee5e2/%5B1%5D_ODE_PINN.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: update is jitted and builds jax.jit(jax.grad(loss_fun,0)) inside its body, and reads the global optimizer; the inner jit is only traced while update is traced, so the training loop compiles update once and the nested jit costs nothing.

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
# cell 2
#Imports
import jax 
import jax.numpy as jnp
import numpy as np
import optax
# (matplotlib and sympy imports, the sympy reference solution cells 3-10 and the plot cell 17 are cut: sympy is not installed)
# cell 12
N_b = 1
N_c = 100

tmin,tmax=0. ,jnp.pi

'''boundary conditions'''


# U[0] = 1
t_0 = jnp.ones([N_b,1],dtype='float32')*0.
ic_0 = jnp.ones_like(t_0) 
IC_0 = jnp.concatenate([t_0,ic_0],axis=1)

# U_t[0] = 10
t_b1 = jnp.zeros([N_b,1])
bc_1 = jnp.ones_like(t_b1) * 10
BC_1 = jnp.concatenate([t_b1,bc_1],axis=1)

conds = [IC_0,BC_1]

#collocation points

key=jax.random.PRNGKey(0)

t_c = jax.random.uniform(key,minval=tmin,maxval=tmax,shape=(N_c,1))
colloc = t_c

def ODE_loss(t,u):
  u_t=lambda t:jax.grad(lambda t:jnp.sum(u(t)))(t)
  u_tt=lambda t:jax.grad(lambda t : jnp.sum(u_t(t)))(t)
  return -t*jnp.cos(2*jnp.pi*t) + u_t(t) + u_tt(t)
# cell 13
def init_params(layers):
  keys = jax.random.split(jax.random.PRNGKey(0),len(layers)-1)
  params = list()
  for key,n_in,n_out in zip(keys,layers[:-1],layers[1:]):
    lb, ub = -(1 / jnp.sqrt(n_in)), (1 / jnp.sqrt(n_in)) # xavier initialization lower and upper bound
    W = lb + (ub-lb) * jax.random.uniform(key,shape=(n_in,n_out))
    B = jax.random.uniform(key,shape=(n_out,))
    params.append({'W':W,'B':B})
  return params

def fwd(params,t):
  X = jnp.concatenate([t],axis=1)
  *hidden,last = params
  for layer in hidden :
    X = jax.nn.tanh(X@layer['W']+layer['B'])
  return X@last['W'] + last['B']

@jax.jit
def MSE(true,pred):
  return jnp.mean((true-pred)**2)

def loss_fun(params,colloc,conds):
  t_c =colloc[:,[0]]
  ufunc = lambda t : fwd(params,t)
  ufunc_t=lambda t:jax.grad(lambda t:jnp.sum(ufunc(t)))(t)
  loss =jnp.mean(ODE_loss(t_c,ufunc) **2)

  t_ic,u_ic = conds[0][:,[0]],conds[0][:,[1]]  
  loss += MSE(u_ic,ufunc(t_ic))

  t_bc,u_bc = conds[1][:,[0]],conds[1][:,[1]]  
  loss += MSE(u_bc,ufunc_t(t_bc))

  return  loss

@jax.jit
def update(opt_state,params,colloc,conds):
  # Get the gradient w.r.t to MLP params
  grads=jax.jit(jax.grad(loss_fun,0))(params,colloc,conds)
  
  #Update params
  updates, opt_state = optimizer.update(grads, opt_state)
  params = optax.apply_updates(params, updates)

  #Update params
  # return jax.tree_multimap(lambda params,grads : params-LR*grads, params,grads)
  return opt_state,params
# cell 14
# construct the MLP of  6 hidden layers of 8 neurons for each layer
params = init_params([1] + [20]*4+[1])
# cell 15
lr = optax.piecewise_constant_schedule(1e-3,{10_000:5e-3,30_000:1e-3,50_000:5e-4,70_000:1e-4})
optimizer = optax.adam(lr)
opt_state = optimizer.init(params)
# cell 16
# scaffolding: dropped magic: %%time
epochs = 5  # scaffolding: 10_000 in the notebook
for _ in range(epochs):
  opt_state,params = update(opt_state,params,colloc,conds)

  # print loss and epoch info
  if _ %(100) ==0:
    print(f'Epoch={_}\tloss={loss_fun(params,colloc,conds):.3e}')
_report({"jit(update)"}, epochs)  # scaffolding
