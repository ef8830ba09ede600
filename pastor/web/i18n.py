"""Gradio's own interface strings (buttons, aria labels, toasts, footer) in Portuguese, whatever the browser's
language."""

from __future__ import annotations

import gradio as gr

# Gradio's frontend picks its strings from the browser's language and falls back to English; the
# app is written for Portuguese readers, so the same pt-BR strings are registered for English and
# European Portuguese too. Flat keys ("chatbot.retry") take precedence over Gradio's nested ones.
STRINGS = {
    "common.clear": "Limpar",
    "common.complete": "Concluído",
    "common.download": "Baixar",
    "common.download_all": "Baixar tudo",
    "common.edit": "Editar",
    "common.empty": "Vazio",
    "common.error": "Erro",
    "common.info": "Aviso",
    "common.warning": "Atenção",
    "common.language": "Idioma",
    "common.display_theme": "Tema de exibição",
    "common.loading": "Carregando",
    "common.or": "ou",
    "common.progress": "Progresso",
    "common.remove": "Remover",
    "common.settings": "Configurações",
    "common.share": "Compartilhar",
    "common.submit": "Enviar",
    "common.undo": "Desfazer",
    "common.built_with": "feito com",
    "common.built_with_gradio": "Feito com Gradio",
    "common.pwa": "Aplicativo web progressivo",
    "chatbot.clear": "Limpar conversa",
    "chatbot.retry": "Gerar a resposta de novo",
    "chatbot.undo": "Desfazer",
    "chatbot.edit": "Editar",
    "chatbot.submit": "Enviar",
    "chatbot.cancel": "Cancelar",
    "chatbot.like": "Gostei",
    "chatbot.dislike": "Não gostei",
    "chatbot.complete": "Concluído",
    "chatbot.copy_message": "Copiar mensagem",
    "chatbot.copied_message": "Mensagem copiada",
    "chat_interface.new_chat": "Nova conversa",
    "chat_interface.conversation": "Conversa",
    "blocks.connection_can_break": (
        "No celular, a conexão pode cair se esta aba ficar em segundo plano ou o aparelho entrar em repouso."
    ),
    "blocks.lost_connection": "A conexão caiu ao sair da página. Reconectando…",
    "blocks.long_requests_queue": "Há muitas perguntas na fila. Aguarde um pouco.",
    "blocks.waiting_for_inputs": "Aguardando o envio terminar; tente de novo.",
    "errors.use_via_api": "Usar pela API",
    "errors.use_via_api_or_mcp": "Usar pela API",
}

LOCALES = ("en", "pt", "pt-BR")


def portuguese() -> gr.I18n:
    return gr.I18n(**{locale: dict(STRINGS) for locale in LOCALES})
