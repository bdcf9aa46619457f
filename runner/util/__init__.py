"""Small helpers the stages share."""
