"""Secrets: Ansible Vault (byte-compatible) and age, decrypted where Ansible decrypts and never written back.

- ``vault_format``: the vault envelope and cipher (PBKDF2-SHA256, AES-256-CTR, HMAC-SHA256).
- ``passwords``: where vault passwords come from (files, scripts, client scripts, prompts).
- ``keyring``: the passwords of a run, tried in Ansible's order; installed once per process.
- ``encrypted``: an inline ``!vault`` value that decrypts on first use.
- ``age_files``: age-encrypted files and SOPS-style YAML whose values are encrypted under age.
- ``files``: reading any controller file with whatever encryption it carries removed.
- ``censor``: what output must not show.
"""
