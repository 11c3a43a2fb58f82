package io.edp.manager.account;

/** What an account may do: viewers read, operators read and change everything (accounts included). */
public enum Role {
    OPERATOR,
    VIEWER
}
