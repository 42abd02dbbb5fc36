# source: https://github.com/sambhav-antriksh/AIML-Project/blob/c4faf91e0aacac9d1e70a26d34e3bafd7a38727c/Equinox.ipynb
# expect: shape-churn at line 118
# runtime: COMPILES 4 CALLS 36
# why: evaluate() feeds the filter_jit-ed loss and compute_accuracy every test batch of a DataLoader without drop_last; the short last batch (360 = 5*64 + 40 here, 10000 = 156*64 + 16 with real MNIST) has a new shape, so each function compiles twice.

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
import equinox as eqx
import jax
import jax.numpy as jnp
import optax
import torch
# import torchvision  # scaffolding: torchvision cannot be imported here; MNIST is replaced below
from jaxtyping import Array,Float,Int,PyTree
import numpy as np
# Hyperparameters
BATCH_SIZE=64
LEARNING_RATE=3E-4
STEPS=6  # scaffolding: was 300
PRINT_EVERY=5  # scaffolding: was 30
SEED=5678
key=jax.random.PRNGKey(SEED)
# scaffolding: stand-in for torchvision MNIST (no download here): random normalised 1x28x28 images;
# 640 train images and 360 test images (360 = 5 * 64 + 40, so the last test batch is short, as
# with the real 10000-image test set: 10000 = 156 * 64 + 16)
_g = torch.Generator().manual_seed(0)  # scaffolding
train_dataset=torch.utils.data.TensorDataset(torch.randn(640, 1, 28, 28, generator=_g), torch.randint(0, 10, (640,), generator=_g))  # scaffolding
test_dataset=torch.utils.data.TensorDataset(torch.randn(360, 1, 28, 28, generator=_g), torch.randint(0, 10, (360,), generator=_g))  # scaffolding
trainloader= torch.utils.data.DataLoader(train_dataset,batch_size=BATCH_SIZE,shuffle=True)  #iterator (images,label)
testloader= torch.utils.data.DataLoader(test_dataset,batch_size=BATCH_SIZE,shuffle=True)
# checking our data
# trainloader gives me the batches of the data
dummy_x,dummy_y=next(iter(trainloader))
dummy_x=dummy_x.numpy()  #converts pytorch tensor to numpy array #np would not work because no such method
dummy_y=dummy_y.numpy()
print(dummy_x.shape)
print(dummy_y.shape)
print(dummy_y)
class CNN(eqx.Module):
    layers: list

    def __init__(self, key):
        key1, key2, key3, key4 = jax.random.split(key, 4)
        # Standard CNN setup: convolutional layer, followed by flattening,
        # with a small MLP on top.
        self.layers = [
            eqx.nn.Conv2d(1, 3, kernel_size=4, key=key1),
            eqx.nn.MaxPool2d(kernel_size=2),
            jax.nn.relu,
            jnp.ravel,
            eqx.nn.Linear(1728, 512, key=key2),
            jax.nn.sigmoid,
            eqx.nn.Linear(512, 64, key=key3),
            jax.nn.relu,
            eqx.nn.Linear(64, 10, key=key4),
            jax.nn.log_softmax,
        ]

    def __call__(self, x: Float[Array, "1 28 28"]) -> Float[Array, "10"]:
        for layer in self.layers:
            x = layer(x)
        return x


key, subkey = jax.random.split(key, 2)
model = CNN(subkey)
def loss(model: CNN,x:Float[Array,"batch 1 28 28"],y: Int[Array,'batch']) -> Float[Array, ""]:
  pred_y=jax.vmap(model)(x)            # Arguments passed are vectorized in the leading axis now it passes over batch
  return cross_entropy(y,pred_y)

def cross_entropy(y: Int[Array,'batch'],pred_y:Float[Array,'batch 10'])-> Float[Array,""]:
  pred_y= jnp.take_along_axis(pred_y,jnp.expand_dims(y,1),axis=1)
  return -jnp.mean(pred_y)

# Example loss
loss_value=loss(model,dummy_x,dummy_y)
print(loss_value)
# Example inference
output=jax.vmap(model)(dummy_x)
print(output.shape)  #batch of predictions
loss= eqx.filter_jit(loss)
@eqx.filter_jit

def compute_accuracy(model: CNN, x: Float[Array, "batch 1 28 28"], y: Int[Array, "batch"]) -> Float[Array, ""]:
  '''Compute the average accuracy on a batch '''
  pred_y=jax.vmap(model)(x)
  pred_y=jnp.argmax(pred_y,axis=1)
  return jnp.mean(y==pred_y)
_EVAL_CALLS = [0]  # scaffolding
def evaluate(model: CNN, testloader: torch.utils.data.DataLoader):
  avg_loss= 0
  avg_acc= 0
  for x,y in testloader:
    _EVAL_CALLS[0] += 2  # scaffolding
    x=x.numpy()
    y=y.numpy()
    avg_loss+=loss(model,x,y)
    avg_acc+=compute_accuracy(model,x,y)
    #print(y)
  return avg_loss/len(testloader),avg_acc/len(testloader)
evaluate(model,testloader)
optim= optax.adamw(LEARNING_RATE)
def train(model: CNN, trainloader: torch.utils.data.DataLoader,testloader: torch.utils.data.DataLoader,optim: optax.GradientTransformation, steps: int, print_every: int,)->CNN:
  opt_state=optim.init(eqx.filter(model,eqx.is_array))
  @eqx.filter_jit
  def make_step(model: CNN, opt_state: PyTree, x: Float[Array,"batch 1 28 28"],y: Int[Array,"batch"],):
    loss_value,grads= eqx.filter_value_and_grad(loss)(model,x,y)
    updates,opt_state=optim.update(grads,opt_state,eqx.filter(model,eqx.is_array))
    model=eqx.apply_updates(model,updates)
    return model,opt_state,loss_value

  def infinite_trainloader():
    while True:
      yield from trainloader

  for step,(x,y) in zip(range(steps),infinite_trainloader()):
    x=x.numpy()
    y=y.numpy()
    model,opt_state,train_loss= make_step(model,opt_state,x,y)
    if (step%print_every)==0 or ( step == steps-1):
      test_loss,test_accuracy= evaluate(model,testloader)
      print(f'{step=},train_loss={train_loss.item()},'f'test_loss={test_loss.item()},test_accuracy={test_accuracy.item()}')
  return model
model=train(model,trainloader,testloader,optim,STEPS,PRINT_EVERY)
_report({"jit(loss)", "jit(compute_accuracy)"}, _EVAL_CALLS[0])  # scaffolding
