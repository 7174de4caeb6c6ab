"""Arena runs compared, merged and pooled, and the chance of repeated looks."""
