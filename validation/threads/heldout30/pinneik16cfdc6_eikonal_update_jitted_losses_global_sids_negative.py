# source: https://github.com/ARCHIBONG1/Jax-PINNEik/blob/16cfdc6b54f38cf1b7d1d03a6abb4197699f1435/Codes/Jax_Numpy_Script_1-Smooth%20Model.ipynb
# expect: none
# runtime: COMPILES 4 CALLS 80
# why: the eikonal PINN's jitted update, loss_fun, pde_loss and tau_loss read module globals (sids, optimizer) that are set once before training and never change, and every epoch passes the same arrays, so each compiles once: 4 compiles for 80 calls.
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
# Jax Libraries
import jax
import jax.numpy as jnp
from jax import grad, jit, random
import optax
import pickle
# from jax.lib import xla_bridge  # scaffolding: removed from jax; only used for the GPU report of cell 2 (cut)

# Data Visualisation Libraries
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed (plot cells cut)
# from mpl_toolkits.axes_grid1 import make_axes_locatable  # scaffolding
import timeit

# Operating System and gpu
import os 
import subprocess
# cell 2
# scaffolding: the GPU report (xla_bridge backend, CUDA_VISIBLE_DEVICES, nvidia-smi) is cut; only its key line is kept
# Defines a random key to be employed using seed 0
random_key = random.PRNGKey(0)
# cell 3
# Velocity at origin
v0 = 2 

# Vertical axis
z_grad = 0.5; z_min = 0.; z_max = 2; z_delta = 0.02

# Horizontal axis
x_grad = 0.0; x_min = 0.0; x_max = 2; x_delta = 0.02

# Point-source location
sz = 1.0; sx = 1.0;

# Number of training points
training_points = 2500
# cell 4
# Generating the vertical and horizontal values of our model
z = jnp.arange(z_min,z_max+z_delta,z_delta)
x = jnp.arange(x_min,x_max+x_delta,x_delta)
# cell 5
Z,X = jnp.meshgrid(z,x,indexing='ij')
# cell 6
# Preparing velocity model
vs = v0 + z_grad*sz + x_grad*sx # Velocity at source location
velmodel = vs + z_grad*(Z-sz) + x_grad*(X-sx);
# cell 7
# scaffolding: plotting-only cell cut
# cell 8
# Traveltime solution

if z_grad==0 and x_grad==0: 
  # Homogeneous velocity model
  T_data = jnp.sqrt((Z-sz)**2 + (X-sx)**2)/v0;
else: 
  # Velocity gradient model
  T_data = jnp.arccosh(1.0+0.5*(1.0/velmodel)*(1/vs)*(z_grad**2 + x_grad**2)*((X-sx)**2 + (Z-sz)**2))/jnp.sqrt(z_grad**2 + x_grad**2)
# cell 9
# Grid points for testing 
X_star = [Z.reshape(-1,1), X.reshape(-1,1)]
# cell 10
# Analytical Parameters for testing
vel = velmodel[int(round(sz/z_delta)),int(round(sx/x_delta))] # Velocity at the source location

T0 = jnp.sqrt((Z-sz)**2 + (X-sx)**2)/vel; #  Calculates the travel time T0 for each point in the grid

px0 = jnp.where(T0 != 0, jnp.divide(X - sx, T0 * vel**2), 0)  # Calculates the x-component of the vector 

pz0 = jnp.where(T0 != 0, jnp.divide(Z - sz, T0 * vel**2), 0)  # Calculates the y-component of the vector
# cell 11
# Saves 2500 randomly selected points
selected_points = random.choice(random_key, jnp.arange(Z.size), shape=(training_points,), replace=False)
# cell 12
# Z and X Values for training
Zf = Z.reshape(-1,1)[selected_points] # selects the 2500 points from Zf
Zf = jnp.append(Zf,sz)                # Appends the source location to the selected points for Zf
Xf = X.reshape(-1,1)[selected_points] # selects the 2500 points from Xf
Xf = jnp.append(Xf,sx)                # Appends the source location to the selected points for Xf
# cell 13
# Grid points for training
X_starf = [Zf.reshape(-1,1), Xf.reshape(-1,1)]
# cell 14
# Preparing Training data
velmodelf = velmodel.reshape(-1,1)[selected_points]; velmodelf = jnp.append(velmodelf,vs)   # selects the 2500 points from velmodel and appends the velocity at source location
px0f = px0.reshape(-1,1)[selected_points]; px0f = jnp.append(px0f,0.)    # selects the 2500 points from px0 and appends the value at source location
pz0f = pz0.reshape(-1,1)[selected_points]; pz0f = jnp.append(pz0f,0.)    # selects the 2500 points from pz0 and appends the value at source location
T0f = T0.reshape(-1,1)[selected_points]; T0f = jnp.append(T0f,0.)        # selects the 2500 points from T0 and appends the value at source location
# cell 15
# Tolerance values for the x and z coordinates
TOLX = 1e-6
TOLZ = 1e-6

sids,_= jnp.where(jnp.logical_and(jnp.abs(X_starf[0]-sz)<TOLZ , jnp.abs(X_starf[1]-sx)<TOLX))   # Computes the source location ID using the established tolerance values

print(sids)
print(sids.shape)
print(X_starf[0][sids,0])
print(X_starf[1][sids,0])
# cell 16
# Architecture of the neural network model
layers = [2,20,20,20,20,20,20,20,20,20,20,1]
# cell 17
# Function to randomly initialise the network parameters using Xavier iniatialisation
def init_params(layers):

  keys = jax.random.split(jax.random.PRNGKey(0),len(layers)-1)
  params = list()      # Defines an empty list to store the parameters

  for key,n_in,n_out in zip(keys,layers[:-1],layers[1:]):   # For loop iterates over the keys, number of input neurons (n_in), and number of output neurons 
    lb = -(1 / jnp.sqrt(n_in)) # lower bound
    ub = (1 / jnp.sqrt(n_in)) # upper bound
    W = lb + (ub-lb) * jax.random.uniform(key,shape=(n_in,n_out))  # Initialises the weight matrix
    B = jax.random.uniform(key,shape=(n_out,))             # Initialises the bias vector 
    params.append({'W':W,'B':B})                           # Adds a dictionary containing the weight matrix W and bias vector B to the params list
  return params        # Returns the initialised parameters
# cell 18
# Initialises the parameters of the neural network based on the specified layer architecture.
params = init_params(layers)
# cell 19
# Function tau to computes the output of the neural network 
def tau(params,zt,xt):

  X = jnp.concatenate([zt,xt],axis=1)

  *hidden,last = params
  for layer in hidden:

    X = jax.nn.tanh(X@layer['W']+layer['B']) # Applying the hyperbolic tangent (tanh) activation function

  return X@last['W'] + last['B']
# cell 20
@jax.jit   # Just-in-Time (JIT) decorator to accelerate computation
def pde_loss(params,X_starf,T0t,px0t,pz0t,vt):
    
    # Reshapes all input parameters
    zt = X_starf[0].reshape(-1, 1)
    xt = X_starf[1].reshape(-1, 1)
    T0t = T0t.reshape(-1, 1)
    px0t = px0t.reshape(-1, 1)
    pz0t = pz0t.reshape(-1, 1)
    vt = vt.reshape(-1, 1)
    
    # Computes the output of the neural network
    tau_output = tau(params,zt,xt) 
    
    # Computes the gradient
    dtau_dz = jax.grad(lambda zt,xt: jnp.sum(tau(params, zt,xt)), argnums=0)(zt,xt)  # Gradient of the tau function with respect to zt
    dtau_dx = jax.grad(lambda zt,xt: jnp.sum(tau(params, zt,xt)), argnums=1)(zt,xt)  # # Gradient of the tau function with respect to xt

    # Computes the combined term
    term1 = T0t * dtau_dz + tau_output * pz0t
    term2 = T0t * dtau_dx + tau_output * px0t
    
    # Computes the PDE loss value using MSE function 
    loss_pde = MSE(0,(jnp.square(term1) + jnp.square(term2) - 1.0 / (vt ** 2))) 
    
    return loss_pde
# cell 21
@jax.jit    # Just-in-Time (JIT) decorator to accelerate computation
def MSE(true_tau,pred_tau):
    # Function to compute mean squared error (MSE)
    
    return jnp.mean((true_tau-pred_tau)**2)  # Computes and returns the MSE between true and pred
# cell 22
@jax.jit   # Just-in-Time (JIT) decorator to accelerate computation
def tau_loss(params,X_starf):
    # Function to compute tau loss
    
    # # Reshapes all input parameters
    zt = X_starf[0].reshape(-1, 1)
    xt = X_starf[1].reshape(-1, 1)
    
    # Computes the output of the neural network
    tau_output = tau(params,zt,xt)  
    
    # Computes the tau loss value using MSE function
    tau_loss = MSE(jnp.ones(sids.shape), tau_output[sids])
    
    
    return tau_loss
# cell 23
@jax.jit    # Just-in-Time (JIT) decorator to accelerate computation
def loss_fun(params,X_starf, T0t, px0t, pz0t, vt):
    # Function to compute the combined loss from tau and PDE
    
    loss_tau = tau_loss(params,X_starf) # Obtains the tau loss value from tau loss function
    loss_pde = pde_loss(params,X_starf, T0t, px0t, pz0t, vt) # Obtains the PDE loss value from PDE loss function
    
    return loss_pde + loss_tau # Computes and returns the sum of the boths losses
# cell 24
# defines an adaptive learning rate that changes at specified epochs
lr = optax.piecewise_constant_schedule(1e-2,{500:2.9e-3})

# Utilises the adam optimiser
optimizer = optax.adam(lr)

# Updates the parameters
opt_state = optimizer.init(params)
# cell 25
@jax.jit    # Just-in-Time (JIT) decorator to accelerate computation
def update(opt_state,params,X_starf, T0t, px0t, pz0t, vt):
    # Function to update the parameters for each gradient descent
    
    # calculates the gradients of loss_fun
    grads=jax.grad(loss_fun,0)(params,X_starf, T0t, px0t, pz0t, vt)

    # Update params
    updates, opt_state = optimizer.update(grads, opt_state)
    
    # Applies the updated params
    params = optax.apply_updates(params, updates)

    return opt_state,params
# cell 26
# %%time  # scaffolding: magic dropped
epochs = 20  # scaffolding: 10000 epochs in the notebook
loss_value = [] # List to hold the values of the combines loss
loss_pde = []   # List to hold the values of the PDE loss
loss_tau = []   # # List to hold the values of the tau loss

for epoch in range(epochs):  # For loop to iterate over the stipulates epochs
    opt_state, params = update(opt_state,params, X_starf,T0f, px0f, pz0f, velmodelf)

    # print loss and epoch info
    if epoch%(1) ==0:
        loss_pp = loss_fun(params,X_starf,T0f, px0f, pz0f, velmodelf) # Computes the total loss
        loss_value.append(loss_pp)                                    # Appends the total loss value to the declared list
        print(f'Epoch = {epoch},\tloss = {loss_pp:.3e}')              # Prints the total loss values for each epoch

        #Individual losses
        loss_pde.append(pde_loss(params,X_starf, T0f, px0f, pz0f, velmodelf)) # Computes and appends the PDE loss
        loss_tau.append(tau_loss(params,X_starf))                       # Computes and appends the tau loss

# saving the final trained weights
import io  # scaffolding
with io.BytesIO() as f:  # scaffolding: stands in for the notebook's open('/home/archibong/.../Jax_script_1_trained_weights.pkl', 'wb')
    pickle.dump(params, f)
_report({"jit(update)", "jit(loss_fun)", "jit(pde_loss)", "jit(tau_loss)"}, 4 * epochs)  # scaffolding: 4 jitted calls per epoch
