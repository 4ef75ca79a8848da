/** Form and view models of the editor pages (plain getters, so Jakarta Pages EL can read them). */
package dev.amcp.gateway.editor.entity;
