# Source: mrdbourke/pytorch-deep-learning, 00_pytorch_fundamentals.ipynb (Zero to Mastery: Learn PyTorch for Deep Learning)
# Changed: code cells joined, each cell's last expression printed as Jupyter shows it; the cell that shows an error runs in try/except, printing it; the 1 cell(s) showing torch.__version__ left out.
def _show(value):  # what Jupyter shows for a cell's last expression
    if value is not None:
        print(repr(value))

import torch

# Scalar
scalar = torch.tensor(7)
_show((scalar))

_show((scalar.ndim))

# Get the Python number within a tensor (only works with one-element tensors)
_show((scalar.item()))

# Vector
vector = torch.tensor([7, 7])
_show((vector))

# Check the number of dimensions of vector
_show((vector.ndim))

# Check shape of vector
_show((vector.shape))

# Matrix
MATRIX = torch.tensor([[7, 8], 
                       [9, 10]])
_show((MATRIX))

# Check number of dimensions
_show((MATRIX.ndim))

_show((MATRIX.shape))

# Tensor
TENSOR = torch.tensor([[[1, 2, 3],
                        [3, 6, 9],
                        [2, 4, 5]]])
_show((TENSOR))

# Check number of dimensions for TENSOR
_show((TENSOR.ndim))

# Check shape of TENSOR
_show((TENSOR.shape))

# Create a random tensor of size (3, 4)
random_tensor = torch.rand(size=(3, 4))
_show((random_tensor, random_tensor.dtype))

# Create a random tensor of size (224, 224, 3)
random_image_size_tensor = torch.rand(size=(224, 224, 3))
_show((random_image_size_tensor.shape, random_image_size_tensor.ndim))

# Create a tensor of all zeros
zeros = torch.zeros(size=(3, 4))
_show((zeros, zeros.dtype))

# Create a tensor of all ones
ones = torch.ones(size=(3, 4))
_show((ones, ones.dtype))

# Use torch.arange(), torch.range() is deprecated 
zero_to_ten_deprecated = torch.range(0, 10) # Note: this may return an error in the future

# Create a range of values 0 to 10
zero_to_ten = torch.arange(start=0, end=10, step=1)
_show((zero_to_ten))

# Can also create a tensor of zeros similar to another tensor
ten_zeros = torch.zeros_like(input=zero_to_ten) # will have same shape
_show((ten_zeros))

# Default datatype for tensors is float32
float_32_tensor = torch.tensor([3.0, 6.0, 9.0],
                               dtype=None, # defaults to None, which is torch.float32 or whatever datatype is passed
                               device=None, # defaults to None, which uses the default tensor type
                               requires_grad=False) # if True, operations performed on the tensor are recorded 

_show((float_32_tensor.shape, float_32_tensor.dtype, float_32_tensor.device))

float_16_tensor = torch.tensor([3.0, 6.0, 9.0],
                               dtype=torch.float16) # torch.half would also work

_show((float_16_tensor.dtype))

# Create a tensor
some_tensor = torch.rand(3, 4)

# Find out details about it
print(some_tensor)
print(f"Shape of tensor: {some_tensor.shape}")
print(f"Datatype of tensor: {some_tensor.dtype}")
print(f"Device tensor is stored on: {some_tensor.device}") # will default to CPU

# Create a tensor of values and add a number to it
tensor = torch.tensor([1, 2, 3])
_show((tensor + 10))

# Multiply it by 10
_show((tensor * 10))

# Tensors don't change unless reassigned
_show((tensor))

# Subtract and reassign
tensor = tensor - 10
_show((tensor))

# Add and reassign
tensor = tensor + 10
_show((tensor))

# Can also use torch functions
_show((torch.multiply(tensor, 10)))

# Original tensor is still unchanged 
_show((tensor))

# Element-wise multiplication (each element multiplies its equivalent, index 0->0, 1->1, 2->2)
print(tensor, "*", tensor)
print("Equals:", tensor * tensor)

import torch
tensor = torch.tensor([1, 2, 3])
_show((tensor.shape))

# Element-wise matrix multiplication
_show((tensor * tensor))

# Matrix multiplication
_show((torch.matmul(tensor, tensor)))

# Can also use the "@" symbol for matrix multiplication, though not recommended
_show((tensor @ tensor))

# Matrix multiplication by hand 
# (avoid doing operations with for loops at all cost, they are computationally expensive)
value = 0
for i in range(len(tensor)):
  value += tensor[i] * tensor[i]
_show((value))

_show((torch.matmul(tensor, tensor)))

# Shapes need to be in the right way  
tensor_A = torch.tensor([[1, 2],
                         [3, 4],
                         [5, 6]], dtype=torch.float32)

tensor_B = torch.tensor([[7, 10],
                         [8, 11], 
                         [9, 12]], dtype=torch.float32)

try:  # (this cell shows an error in the notebook; Jupyter prints it and the learner goes on)
    _show((torch.matmul(tensor_A, tensor_B)))
except RuntimeError as e:
    print(type(e).__name__ + ':', e)

# View tensor_A and tensor_B
print(tensor_A)
print(tensor_B)

# View tensor_A and tensor_B.T
print(tensor_A)
print(tensor_B.T)

# The operation works when tensor_B is transposed
print(f"Original shapes: tensor_A = {tensor_A.shape}, tensor_B = {tensor_B.shape}\n")
print(f"New shapes: tensor_A = {tensor_A.shape} (same as above), tensor_B.T = {tensor_B.T.shape}\n")
print(f"Multiplying: {tensor_A.shape} * {tensor_B.T.shape} <- inner dimensions match\n")
print("Output:\n")
output = torch.matmul(tensor_A, tensor_B.T)
print(output) 
print(f"\nOutput shape: {output.shape}")

# torch.mm is a shortcut for matmul
_show((torch.mm(tensor_A, tensor_B.T)))

# Since the linear layer starts with a random weights matrix, let's make it reproducible (more on this later)
torch.manual_seed(42)
# This uses matrix multiplication
linear = torch.nn.Linear(in_features=2, # in_features = matches inner dimension of input 
                         out_features=6) # out_features = describes outer value 
x = tensor_A
output = linear(x)
print(f"Input shape: {x.shape}\n")
print(f"Output:\n{output}\n\nOutput shape: {output.shape}")

# Create a tensor
x = torch.arange(0, 100, 10)
_show((x))

print(f"Minimum: {x.min()}")
print(f"Maximum: {x.max()}")
# print(f"Mean: {x.mean()}") # this will error
print(f"Mean: {x.type(torch.float32).mean()}") # won't work without float datatype
print(f"Sum: {x.sum()}")

_show((torch.max(x), torch.min(x), torch.mean(x.type(torch.float32)), torch.sum(x)))

# Create a tensor
tensor = torch.arange(10, 100, 10)
print(f"Tensor: {tensor}")

# Returns index of max and min values
print(f"Index where max value occurs: {tensor.argmax()}")
print(f"Index where min value occurs: {tensor.argmin()}")

# Create a tensor and check its datatype
tensor = torch.arange(10., 100., 10.)
_show((tensor.dtype))

# Create a float16 tensor
tensor_float16 = tensor.type(torch.float16)
_show((tensor_float16))

# Create an int8 tensor
tensor_int8 = tensor.type(torch.int8)
_show((tensor_int8))

# Create a tensor
import torch
x = torch.arange(1., 8.)
_show((x, x.shape))

# Add an extra dimension
x_reshaped = x.reshape(1, 7)
_show((x_reshaped, x_reshaped.shape))

# Change view (keeps same data as original but changes view)
# See more: https://stackoverflow.com/a/54507446/7900723
z = x.view(1, 7)
_show((z, z.shape))

# Changing z changes x
z[:, 0] = 5
_show((z, x))

# Stack tensors on top of each other
x_stacked = torch.stack([x, x, x, x], dim=0) # try changing dim to dim=1 and see what happens
_show((x_stacked))

print(f"Previous tensor: {x_reshaped}")
print(f"Previous shape: {x_reshaped.shape}")

# Remove extra dimension from x_reshaped
x_squeezed = x_reshaped.squeeze()
print(f"\nNew tensor: {x_squeezed}")
print(f"New shape: {x_squeezed.shape}")

print(f"Previous tensor: {x_squeezed}")
print(f"Previous shape: {x_squeezed.shape}")

## Add an extra dimension with unsqueeze
x_unsqueezed = x_squeezed.unsqueeze(dim=0)
print(f"\nNew tensor: {x_unsqueezed}")
print(f"New shape: {x_unsqueezed.shape}")

# Create tensor with specific shape
x_original = torch.rand(size=(224, 224, 3))

# Permute the original tensor to rearrange the axis order
x_permuted = x_original.permute(2, 0, 1) # shifts axis 0->1, 1->2, 2->0

print(f"Previous shape: {x_original.shape}")
print(f"New shape: {x_permuted.shape}")

# Create a tensor 
import torch
x = torch.arange(1, 10).reshape(1, 3, 3)
_show((x, x.shape))

# Let's index bracket by bracket
print(f"First square bracket:\n{x[0]}") 
print(f"Second square bracket: {x[0][0]}") 
print(f"Third square bracket: {x[0][0][0]}")

# Get all values of 0th dimension and the 0 index of 1st dimension
_show((x[:, 0]))

# Get all values of 0th & 1st dimensions but only index 1 of 2nd dimension
_show((x[:, :, 1]))

# Get all values of the 0 dimension but only the 1 index value of the 1st and 2nd dimension
_show((x[:, 1, 1]))

# Get index 0 of 0th and 1st dimension and all values of 2nd dimension 
_show((x[0, 0, :]))

# NumPy array to tensor
import torch
import numpy as np
array = np.arange(1.0, 8.0)
tensor = torch.from_numpy(array)
_show((array, tensor))

# Change the array, keep the tensor
array = array + 1
_show((array, tensor))

# Tensor to NumPy array
tensor = torch.ones(7) # create a tensor of ones with dtype=float32
numpy_tensor = tensor.numpy() # will be dtype=float32 unless changed
_show((tensor, numpy_tensor))

# Change the tensor, keep the array the same
tensor = tensor + 1
_show((tensor, numpy_tensor))

import torch

# Create two random tensors
random_tensor_A = torch.rand(3, 4)
random_tensor_B = torch.rand(3, 4)

print(f"Tensor A:\n{random_tensor_A}\n")
print(f"Tensor B:\n{random_tensor_B}\n")
print(f"Does Tensor A equal Tensor B? (anywhere)")
_show((random_tensor_A == random_tensor_B))

import torch
import random

# # Set the random seed
RANDOM_SEED=42 # try changing this to different values and see what happens to the numbers below
torch.manual_seed(seed=RANDOM_SEED) 
random_tensor_C = torch.rand(3, 4)

# Have to reset the seed every time a new rand() is called 
# Without this, tensor_D would be different to tensor_C 
torch.random.manual_seed(seed=RANDOM_SEED) # try commenting this line out and seeing what happens
random_tensor_D = torch.rand(3, 4)

print(f"Tensor C:\n{random_tensor_C}\n")
print(f"Tensor D:\n{random_tensor_D}\n")
print(f"Does Tensor C equal Tensor D? (anywhere)")
_show((random_tensor_C == random_tensor_D))



# Check for GPU
import torch
_show((torch.cuda.is_available()))

# Set device type
device = "cuda" if torch.cuda.is_available() else "cpu"
_show((device))

# Count number of devices
_show((torch.cuda.device_count()))

# Check for Apple Silicon GPU
import torch
_show((torch.backends.mps.is_available()))

# Set device type
device = "mps" if torch.backends.mps.is_available() else "cpu"
_show((device))

if torch.cuda.is_available():
    device = "cuda" # Use NVIDIA GPU (if available)
elif torch.backends.mps.is_available():
    device = "mps" # Use Apple Silicon GPU (if available)
else:
    device = "cpu" # Default to CPU if no GPU is available

# Create tensor (default on CPU)
tensor = torch.tensor([1, 2, 3])

# Tensor not on GPU
print(tensor, tensor.device)

# Move tensor to GPU (if available)
tensor_on_gpu = tensor.to(device)
_show((tensor_on_gpu))

# If tensor is on GPU, can't transform it to NumPy (this will error)
_show((tensor_on_gpu.numpy()))

# Instead, copy the tensor back to cpu
tensor_back_on_cpu = tensor_on_gpu.cpu().numpy()
_show((tensor_back_on_cpu))

_show((tensor_on_gpu))

