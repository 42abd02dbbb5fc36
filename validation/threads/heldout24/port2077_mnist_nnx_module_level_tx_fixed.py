# source: https://github.com/port2077/jax_projects/blob/097ba921e3c0e920dbef738db8b0e77698faed7b/mnist/mnist_jax.py
# expect: none
# runtime: COMPILES 1 CALLS 18
# why: the optax.adam transformation is built once at module level and shared by the nnx.Optimizer of every run, so the optimizer graphdef is equal across runs and train_step compiles once for all 18 steps.
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


from collections import defaultdict
import time

import numpy as np  # scaffolding: torch/torchvision are not installed; stand-ins below
from types import SimpleNamespace  # scaffolding
import jax
import jax.numpy as jnp
from jax.tree_util import tree_map

from flax import nnx
import optax

print(jax.devices())

class Model(nnx.Module):

    def __init__(self, rngs : nnx.Rngs):
        super().__init__()

        ## jax expects image dimensions in NCHW order {batch size, channels, height, width}
        self.conv1 = nnx.Conv(
            in_features = 1,
            out_features = 8,
            kernel_size = (3,3),
            strides = 1,
            padding = 'SAME',
            rngs = rngs
        )
        self.conv2 = nnx.Conv(
            in_features= 8,
            out_features = 16,
            kernel_size = (3,3),
            strides = 1,
            padding = 'SAME',
            rngs = rngs
        )
        self.conv3 = nnx.Conv(
            in_features= 16,
            out_features = 32,
            kernel_size = (3,3),
            strides = 1,
            padding = 'SAME',
            rngs = rngs
        )
        
        self.dropout = nnx.Dropout(rate=0.5, rngs = rngs)
        self.linear1 = nnx.Linear(32*14*14,10, rngs = rngs)
        

    
    def __call__(self,x):

        #print(f'Input tensor shape : {x.shape}')
        x = jnp.transpose(x,[0,2,3,1])
        #print(f'Input tensor shape : {x.shape}')
        x = nnx.relu(self.conv1(x))
        x = nnx.relu(self.conv2(x))
        x = self.dropout(x)
        x = nnx.relu(self.conv3(x))
        x = nnx.max_pool(x,
            window_shape = (2,2),
            strides = (2,2),
            padding= 'SAME'
            )
        #print(f'Tensor shape after maxpool: {x.shape}')
        x = x.reshape((x.shape[0],-1))
        x = self.linear1(x)
        # x = nnx.sigmoid(x)

        return x
    

## collate fucntion that takes torch arrays 
## and convert them to jax,array datatype

def default_collate(batch):  # scaffolding: torch's default_collate for (image, label) pairs
    return np.stack([b[0] for b in batch]), np.array([b[1] for b in batch])  # scaffolding


class _MNIST:  # scaffolding: 96 train / 40 test synthetic 1x28x28 images instead of MNIST
    def __init__(self, root, train=True, download=True, transform=None):  # scaffolding
        n = 96 if train else 40  # scaffolding
        rng = np.random.default_rng(0 if train else 1)  # scaffolding
        self.x = rng.normal(size=(n, 1, 28, 28)).astype(np.float32)  # scaffolding
        self.y = rng.integers(0, 10, size=n)  # scaffolding

    def __len__(self):  # scaffolding
        return len(self.y)  # scaffolding

    def __getitem__(self, i):  # scaffolding
        return self.x[i], self.y[i]  # scaffolding


class _DataLoader:  # scaffolding: torch DataLoader (batch_size, shuffle, collate_fn; keeps the last partial batch)
    def __init__(self, ds, batch_size=1, shuffle=False, collate_fn=None):  # scaffolding
        self.ds, self.bs, self.shuffle, self.collate_fn = ds, batch_size, shuffle, collate_fn  # scaffolding

    def __len__(self):  # scaffolding
        return -(-len(self.ds) // self.bs)  # scaffolding

    def __iter__(self):  # scaffolding
        idx = np.random.permutation(len(self.ds)) if self.shuffle else np.arange(len(self.ds))  # scaffolding
        for i in range(0, len(idx), self.bs):  # scaffolding
            yield self.collate_fn([self.ds[j] for j in idx[i:i + self.bs]])  # scaffolding


torch = SimpleNamespace(utils=SimpleNamespace(data=SimpleNamespace(DataLoader=_DataLoader)))  # scaffolding
datasets = SimpleNamespace(MNIST=_MNIST)  # scaffolding
transforms = SimpleNamespace(Compose=lambda ts: None, ToTensor=lambda: None, Normalize=lambda m, s: None)  # scaffolding


def jax_collate(batch):
    return tree_map(jnp.asarray,default_collate(batch))

@nnx.jit

def train_step(model,optimizer,data,target):

    ## define the loss function which will return the numerical loss value
    def loss_fx(model):
        #print(f'Input tensor shape: {data.shape}')
        output = model(data)
        loss = optax.softmax_cross_entropy_with_integer_labels(output,target).mean()
        return loss,output

    grad_fx = nnx.value_and_grad(loss_fx,has_aux=True)
    ## get the numerical gradient values
    (loss,output),grads = grad_fx(model)
    ## use grads to update the NN weights
    optimizer.update(model, grads)  # scaffolding: flax 0.12 signature (was optimizer.update(grads))

    return loss, output

# @nnx.jit
def train_epoch(model,optimizer,train_dataloader):

    model.train()
    total_loss = 0
    accuracy = 0
    total = 0
    for batch_idx,(data,target) in enumerate(train_dataloader):
        loss,output = train_step(model,optimizer,data,target)
        total_loss += loss
        # print(f'Prediction Shape: {output.shape}')
        # print(output)
        output = jnp.argmax(output,axis=1)
        # print('argmax',output)
        # print(f'target shape {target.shape}')
        # print('target',target)
        accuracy += (output==target).sum()
        #print(f'accuracy {accuracy}')
        total += target.shape[0]
    return total_loss/len(train_dataloader), accuracy, total




tx = optax.adam(learning_rate=1e-3)  # fixed: built once, outside train()


def train(epochs):

    transform = transforms.Compose([
        transforms.ToTensor(),
        transforms.Normalize((0.1307,), (0.3081,))
    ])

    train_dataset = datasets.MNIST('data',train=True,download=True,transform=transform)
    test_dataset = datasets.MNIST('data',train=False,download=True,transform=transform)

    train_dataloader = torch.utils.data.DataLoader(
        train_dataset,
        batch_size = 32,
        shuffle = True,
        collate_fn= jax_collate
    ) 

    test_dataloader = torch.utils.data.DataLoader(
        test_dataset,
        batch_size=32,
        collate_fn=jax_collate
    )

    model = Model(rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(
        model,
        tx,  # fixed: one optax transformation shared by all runs
        wrt=nnx.Param,  # scaffolding: required by flax 0.12
    )

    ## since jax is based on functional programming , loss and grads
    ## are defined and/or calculated as functions which returns
    ## the numerical value of the loss/grad which can then be used
    ## to update the weights
    start_time = time.time()
    for epoch in range(epochs):
        model.train()
        loss_val = 0
        correct = 0
        total = 0

        loss,accuracy,total = train_epoch(model,optimizer,train_dataloader)

        print(f'Epoch: {epoch+1}/{epochs} Average Loss: {loss} Accuracy: {accuracy/total * 100:.2f}')
        #print(f'Epoch: {epoch}/{5-1}  Accuracy: {accuracy:.2f}%')
    end_time = time.time()
    print(f'Train time: {end_time - start_time:.2f} seconds')

    # model.eval()
    # num_of_correct = 0
    # total = 0
    # for batch_idx,(data,target) in enumerate(test_dataloader):
    #     output = model(data)
    #     predicted = jnp.argmax(output, 1)  # Get the predicted class
    #     total += target.shape[0]  # Add batch size
    #     num_of_correct += (predicted == target).sum()
    # print(f'Test Dataset Accuracy: {(num_of_correct/total).item()}')



            
if __name__ == "__main__" :

    train_time_dict = defaultdict(int)

    for i in range(3):  # scaffolding: 3 benchmark runs instead of 5
        start = time.time()
        train(2)  # scaffolding: 2 epochs instead of 5
        end = time.time()
        run_time = round(end-start,2)
        train_time_dict[f'JAX train run {i+1}, time in secs'] = run_time
        print(f'Total runtime: {end - start:.2f} seconds')
    print(train_time_dict)
    _report({"jit(train_step)"}, 18)  # scaffolding: 3 runs x 2 epochs x 3 batches












