# source: https://github.com/AbeelLab/jaxkineticmodel/blob/c68fdb24567c777605f198c5e52e0d03a1a5faec/jax_implementation/BioSB_batch_example.ipynb
# expect: shape-churn at line 183
# runtime: COMPILES 3 CALLS 12
# why: each parameter set starts as a dict of Python floats (weak-typed), and after the first update params and the adabelief state come back as strong float64 arrays, so the jitted update compiles 3 times in the first set's first 3 epochs (then the cached versions are reused): 3 compiles for 12 calls.
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
# cell 1

import diffrax
from diffrax import diffeqsolve, ODETerm, Dopri5,SaveAt
import numpy as np
np.random.seed(0)  # scaffolding: fixed seed for the sampled parameter sets
import jax.numpy as jnp
import jax

import equinox as eqx  # https://github.com/patrick-kidger/equinox
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed; plotting lines cut
import optax
# import pandas as pd  # scaffolding: pandas is not installed; the bounds csv is stood in below
import logging

logging.basicConfig(level=logging.ERROR)  # scaffolding: log to stderr instead of errors.log
jax.config.update("jax_enable_x64", True)
# cell 2
params={"p_qsmax":-0.3,"p_Ks":0.01,"p_a":-1.6,"p_ms":-0.01}




class Bioprocess_4p():
    def __init__(self):
        super().__init__()
    
    def __call__(self,t,y,args):
        params=args[0]
        
        qs=params['p_qsmax']*(y[0]/(params['p_Ks']+y[0]))
        qx=(qs-params['p_ms'])/params['p_a']

        Rs=qs*y[1]
        Rx=qx*y[1]
        dY=jnp.stack([Rs,Rx])
        return dY

class NeuralODE():
    func : Bioprocess_4p()

    def __init__(self):
        super().__init__()

        self.func=Bioprocess_4p()

    def __call__(self,ts,y0,params):
        solution = diffrax.diffeqsolve(
        diffrax.ODETerm(self.func),
        diffrax.Kvaerno3(),
        t0=ts[0],
        t1=ts[-1],
        dt0=ts[1] - ts[0],
        y0=y0,
        args=[params],
        stepsize_controller=diffrax.PIDController(rtol=1e-3, atol=1e-8),
        saveat=diffrax.SaveAt(ts=ts),
        max_steps=10000
        )
        return solution.ys



model_bioprocess=NeuralODE()
model_bioprocess=jax.jit(model_bioprocess)

ts=jnp.linspace(0,100,8)

y_names=["S",'Biomass']
y0=jnp.array([3,0.1])

ys=model_bioprocess(ts=ts,y0=y0,params=params)

# plt.scatter(ts,ys[:,0],label=y_names[0],linewidth=4,c="#00468BFF")  # scaffolding: plotting cut
# plt.scatter(ts,ys[:,1],label=y_names[1],linewidth=4,c="#ED0000FF")  # scaffolding: plotting cut
# plt.xlabel("Time (in hours)")  # scaffolding: plotting cut
# plt.ylabel("Concentrations")  # scaffolding: plotting cut



def uniform_sampling(bounds,N):
    """Takes a uniform sample between lower and upperbound values"""
    parameter_sets=[]
    names=list(bounds.keys())
    for i in range(N):
        random_init={}
        for name in names:
            random_init[name]=float(np.random.uniform(bounds[name]['lb'],bounds[name]['ub'],size=1)[0])  # scaffolding: [0] added; numpy 2 rejects float() of a 1-element array (the notebook's numpy only warned)
        parameter_sets.append(random_init)

    return parameter_sets

##initialize prediction dataset
# bounds=pd.read_csv("batch_bounds.csv",index_col=0).T  # scaffolding: stand-in below
bounds={'p_qsmax': {'lb': -0.5, 'ub': -0.1}, 'p_Ks': {'lb': 0.005, 'ub': 0.05}, 'p_a': {'lb': -2.0, 'ub': -1.2}, 'p_ms': {'lb': -0.2, 'ub': -0.005}}  # scaffolding: batch_bounds.csv stand-in (bounds around the notebook's true params)


bounds=dict(bounds)
parameter_sets=uniform_sampling(bounds,3)  # scaffolding: 100 parameter sets in the notebook
print(parameter_sets)
# print(params_initial_guess)
# ts_ig=jnp.linspace(0,100,100)
# ys_ig=model_bioprocess(ts=ts_ig,y0=y0,params=params_initial_guess)

# plt.plot(ts_ig,ys_ig[:,0],label="S (initial guess)",linewidth=2,c="#0099B4FF")
# plt.plot(ts_ig,ys_ig[:,1],label="X (initial guess)",linewidth=2,c="#AD002AFF")
# plt.xlabel("Time (in hours)")
# plt.ylabel("Concentrations")
# plt.legend()
# cell 3
ys=ys.at[2,1].set(np.nan)
ys=ys.at[5,0].set(np.nan)
# cell 4
# ### simple learning system to test whether grads works as expected
def loss_func(params,ts,ys):
    """A very simple loss function, later we need to add functionality for missing data"""
    
    mask=~jnp.isnan(jnp.array(ys))
    yscale=jnp.nanmax(ys,axis=0)-jnp.nanmin(ys,axis=0)
    y_pred=model_bioprocess(ts,y0,params)*(1/yscale)

    ys=ys*(1/yscale)

    ys = jnp.where(mask, ys, 0)
    y_pred = jnp.where(mask, y_pred, 0)
    non_nan_count = jnp.sum(mask)

    loss = jnp.sum((y_pred - ys) ** 2) / non_nan_count


    return loss

loss_func(params,ts,ys)
@jax.jit
def update(opt_state,params,ts,ys):
    """Update rule for the gradients for parameters"""
    loss=loss_func(params,ts,ys)
    grads=jax.jit(jax.grad(loss_func,0))(params,ts,ys) #loss w.r.t. parameters
    updates,opt_state=optimizer.update(grads,opt_state)
    params = optax.apply_updates(params, updates)
    return opt_state,params,loss,grads
# cell 5
epochs=4  # scaffolding: 50 epochs in the notebook



loss_per_param={}
final_loss=[]

for i in range(len(parameter_sets)):
    print(i)
    params_init=parameter_sets[i]
    lr=1e-4
    optimizer = optax.adabelief(lr)
    opt_state = optimizer.init(params_init)
    loss_per_iter=[]
    for _ in range(epochs):
        try:
            opt_state,params_init,loss,grads=update(opt_state,params_init,ts,ys)
        except Exception as e:
            logging.error(f"Error for {i}: {e}")
        loss_per_iter.append(loss)
    
    final_loss.append(loss)

    loss_per_param[i]=loss_per_iter
_report({"jit(update)"}, len(parameter_sets) * epochs)  # scaffolding
