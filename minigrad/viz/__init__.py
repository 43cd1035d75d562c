"""minigrad.viz: see what ``loss.backward()`` walks.

    print_graph(loss)            the backward graph as a text tree
    draw_graph(loss, params)     the same as a Graphviz picture (torchviz's colours)
    backward_steps(loss)         the backward pass one node at a time; show_steps() shows it
    saved_memory(loss)           the arrays each node keeps for backward, in bytes
    plot_curves / plot_loss_surface / plot_saved_memory   matplotlib figures

Nothing heavy is imported until it is used: graphviz when a graph is drawn,
matplotlib when something is plotted, so ``import minigrad`` stays fast.
"""
import importlib

# public name -> submodule defining it
_EXPORTS = {
    "print_graph": "text", "format_graph": "text",
    "draw_graph": "dot", "GraphDrawing": "dot", "render_svg": "dot",
    "backward_steps": "stepper", "show_steps": "stepper", "Step": "stepper",
    "BackwardSteps": "stepper", "StepStrip": "stepper",
    "saved_memory": "memory", "SavedMemory": "memory", "NodeMemory": "memory",
    "plot_curves": "plots", "plot_loss_surface": "plots", "plot_saved_memory": "plots",
    "descent_path": "plots", "surface_gradient": "plots",
}

__all__ = [  # noqa: RUF022 (grouped by submodule, as in _EXPORTS)
    "print_graph", "format_graph", "draw_graph", "GraphDrawing", "render_svg",
    "backward_steps", "show_steps", "Step", "BackwardSteps", "StepStrip",
    "saved_memory", "SavedMemory", "NodeMemory",
    "plot_curves", "plot_loss_surface", "plot_saved_memory", "descent_path", "surface_gradient",
]


def __getattr__(name):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'minigrad.viz' has no attribute '{name}'")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value  # found once, then a plain attribute
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
