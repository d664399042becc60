"""One writer per agency dialect. Each returns `Table`s (or text documents) and tells the
truth book which true event and which true units and people each record stands for."""
